'use strict';
// End-to-end tests through the DataStax Node.js driver (cassandra-driver 4.x),
// run with node's built-in test runner: `node --test` in this folder.
// The server is $SIBYL_BIN, or <repo>/build/sibyl, started on a free loopback
// port with a temporary data directory.

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const cassandra = require('cassandra-driver');
const { SibylServer } = require('./sibyl_server');

const { Client, errors, types } = cassandra;
const { distance, protocolVersion, responseErrorCodes } = types;

const NUM_TOKENS = 8;
const CLUSTER_NAME = 'Node Cluster';
const SYSTEM_KEYSPACES = ['system', 'system_schema', 'system_auth', 'system_distributed', 'system_traces'];


// A client whose 'warning' and 'error' log events are kept.
function newClient(server, options = {}) {
  const client = new Client({
    contactPoints: ['127.0.0.1'],
    localDataCenter: 'datacenter1',
    ...options,
    protocolOptions: { port: server.port, ...(options.protocolOptions || {}) },
  });
  client.problems = [];
  client.on('log', (level, className, message) => {
    if (level === 'warning' || level === 'error') client.problems.push(`${level} ${className}: ${message}`);
  });
  return client;
}

async function withClient(server, options, body) {
  const client = newClient(server, options);
  try {
    await client.connect();
    return await body(client);
  } finally {
    await client.shutdown();
  }
}

describe('sibyl through the Node.js driver', () => {
  const server = new SibylServer();
  // If the runner dies mid-test, don't leave the server behind.
  process.on('exit', () => server.kill());

  before(async () => {
    await server.start(['--num-tokens', String(NUM_TOKENS), '--cluster-name', CLUSTER_NAME]);
  });

  after(() => server.cleanup());

  // Lets a failing test name the server's state when it is the server's fault.
  const serverNote = () => (server.alive() ? '' : `\nsibyl died:\n${server.output}`);

  it('connects with default options and settles on protocol v4', async () => {
    await withClient(server, {}, async (client) => {
      // The driver starts at DSE_V2 and steps down; Cassandra 4.x nodes are
      // capped at v4 by this driver.
      assert.equal(client.controlConnection.protocolVersion, protocolVersion.v4);
      assert.equal(client.getState().getConnectedHosts().length, 1);
      assert.deepEqual(client.problems, [], serverNote());
    });
  });

  it('reads system.local', async () => {
    await withClient(server, {}, async (client) => {
      const result = await client.execute('SELECT * FROM system.local');
      assert.equal(result.rows.length, 1);
      const row = result.first();
      assert.equal(row.key, 'local');
      assert.match(row.release_version, /^4\.1/);
      assert.equal(row.cluster_name, CLUSTER_NAME);
      assert.equal(row.data_center, 'datacenter1');
      assert.equal(row.rack, 'rack1');
      assert.match(row.partitioner, /Murmur3Partitioner$/);
      assert.equal(row.tokens.length, NUM_TOKENS);
      assert.ok(row.host_id instanceof types.Uuid);
      assert.ok(row.schema_version instanceof types.Uuid);
    });
  });

  it('loads metadata: keyspaces, tables, token ring', async () => {
    await withClient(server, {}, async (client) => {
      const keyspaces = Object.keys(client.metadata.keyspaces);
      for (const name of SYSTEM_KEYSPACES) assert.ok(keyspaces.includes(name), `${name} not in ${keyspaces}`);
      const local = await client.metadata.getTable('system', 'local');
      assert.ok(local, 'no metadata for system.local');
      assert.deepEqual(local.partitionKeys.map((c) => c.name), ['key']);
      assert.deepEqual(local.clusteringKeys, []);
      assert.equal(local.isCompact, false);
      const columns = await client.metadata.getTable('system_schema', 'columns');
      const names = columns.columns.map((c) => c.name);
      for (const name of ['keyspace_name', 'table_name', 'column_name', 'kind', 'position', 'type',
        'clustering_order']) {
        assert.ok(names.includes(name), `system_schema.columns lacks ${name}`);
      }
      assert.equal(client.metadata.ring.length, NUM_TOKENS);
      assert.equal(client.metadata.getTokenRanges().size, NUM_TOKENS);
      assert.deepEqual(client.problems, []);
    });
  });

  it('serves 200 concurrent queries over one connection', async () => {
    const pooling = { coreConnectionsPerHost: { [distance.local]: 1, [distance.remote]: 0 } };
    await withClient(server, { pooling }, async (client) => {
      const tables = await client.execute('SELECT keyspace_name, table_name FROM system_schema.tables');
      const pairs = tables.rows.map((r) => [r.keyspace_name, r.table_name]);
      assert.ok(pairs.length > 10);
      const byKey = 'SELECT keyspace_name, table_name FROM system_schema.tables ' +
        'WHERE keyspace_name = ? AND table_name = ?';
      const local = "SELECT cluster_name FROM system.local WHERE key = 'local'";
      // Every fourth request is of another shape, so a mixed-up stream id shows.
      const requests = Array.from({ length: 200 }, (_, i) => (i % 4 === 3 ? null : pairs[i % pairs.length]));
      const results = await Promise.all(requests.map((pair) => (pair === null
        ? client.execute(local)
        : client.execute(byKey, pair, { prepare: true }))));
      results.forEach((result, i) => {
        const pair = requests[i];
        if (pair === null) {
          assert.deepEqual(result.rows.map((r) => r.cluster_name), [CLUSTER_NAME]);
        } else {
          assert.deepEqual(result.rows.map((r) => [r.keyspace_name, r.table_name]), [pair]);
        }
      });
      const state = client.getState();
      const [host] = state.getConnectedHosts();
      assert.equal(state.getOpenConnections(host), 1);
    });
  });

  it('maps server errors to ResponseError codes', async () => {
    await withClient(server, {}, async (client) => {
      await assert.rejects(client.execute('SELEKT * FROM system.local'), (err) => {
        assert.ok(err instanceof errors.ResponseError, String(err));
        assert.equal(err.code, responseErrorCodes.syntaxError);
        return true;
      });
      await assert.rejects(client.execute('SELECT * FROM system.no_such_table'), (err) => {
        assert.ok(err instanceof errors.ResponseError, String(err));
        assert.equal(err.code, responseErrorCodes.invalid);
        assert.match(err.message, /no_such_table/);
        return true;
      });
      await assert.rejects(client.execute('SELECT * FROM no_such_keyspace.t'), (err) => {
        assert.ok(err instanceof errors.ResponseError, String(err));
        assert.equal(err.code, responseErrorCodes.invalid);
        return true;
      });
      await assert.rejects(client.execute('SELECT * FROM system.no_such_table WHERE key = ?', ['local'],
        { prepare: true }), (err) => {
        assert.ok(err instanceof errors.ResponseError, String(err));
        assert.equal(err.code, responseErrorCodes.invalid);
        return true;
      });
    });
  });

  it('prepares and pages', async () => {
    await withClient(server, {}, async (client) => {
      const query = 'SELECT * FROM system_schema.columns WHERE keyspace_name = ?';
      const all = await client.execute(query, ['system_schema'], { prepare: true, fetchSize: 100000 });
      assert.ok(all.rows.length > 10, `${all.rows.length} rows`);
      const firstPage = await client.execute(query, ['system_schema'], { prepare: true, fetchSize: 10 });
      assert.equal(firstPage.rows.length, 10);
      assert.ok(firstPage.pageState, 'no paging state after a full page');
      const paged = [];
      for await (const row of firstPage) paged.push(row);
      const key = (r) => `${r.table_name}.${r.column_name}`;
      assert.deepEqual(paged.map(key), all.rows.map(key));
    });
  });

  it('speaks protocol v3 when capped with maxVersion', async () => {
    await withClient(server, { protocolOptions: { maxVersion: protocolVersion.v3 } }, async (client) => {
      assert.equal(client.controlConnection.protocolVersion, protocolVersion.v3);
      const row = (await client.execute('SELECT cluster_name FROM system.local')).first();
      assert.equal(row.cluster_name, CLUSTER_NAME);
      assert.deepEqual(client.problems, []);
    });
  });

  it('writes and reads back every shape with routing, batches, TTL and warnings', async () => {
    await withClient(server, {}, async (client) => {
      const created = await client.execute("CREATE KEYSPACE node_ks WITH replication = " +
        "{'class': 'SimpleStrategy', 'replication_factor': 3}");
      assert.deepEqual(created.info.warnings,
        ['Your replication factor 3 for keyspace node_ks is higher than the number of nodes 1']);
      await client.execute('CREATE TABLE node_ks.events (user text, day date, at timeuuid, ' +
        'kind text, tags set<text>, attrs map<text, int>, ' +
        'PRIMARY KEY ((user, day), at)) WITH CLUSTERING ORDER BY (at DESC)');
      const insert = 'INSERT INTO node_ks.events (user, day, at, kind, tags, attrs) VALUES (?, ?, ?, ?, ?, ?) ' +
        'USING TTL 3600';
      const day = types.LocalDate.fromString('2026-11-21');
      const ids = [0, 1, 2].map((i) => types.TimeUuid.fromDate(new Date(Date.UTC(2026, 10, 21, 10, i))));
      for (const [i, at] of ids.entries()) {
        await client.execute(insert, ['ana', day, at, `k${i}`, ['a', 'b'], { x: i }], { prepare: true });
      }
      const prepared = await client.execute(
        'SELECT at, kind, tags, attrs, ttl(kind) AS t FROM node_ks.events WHERE user = ? AND day = ?',
        ['ana', day], { prepare: true });
      // DESC clustering: newest first.
      assert.deepEqual(prepared.rows.map((r) => r.kind), ['k2', 'k1', 'k0']);
      assert.deepEqual(prepared.rows[0].tags, ['a', 'b']);
      assert.deepEqual(prepared.rows[2].attrs, { x: 0 });
      assert.ok(prepared.rows[0].t > 3500 && prepared.rows[0].t <= 3600, `ttl ${prepared.rows[0].t}`);

      await client.batch([
        { query: 'UPDATE node_ks.events SET tags = tags + ? WHERE user = ? AND day = ? AND at = ?',
          params: [['c'], 'ana', day, ids[0]] },
        { query: 'DELETE FROM node_ks.events WHERE user = ? AND day = ? AND at = ?', params: ['ana', day, ids[1]] },
      ], { prepare: true });
      const after = await client.execute('SELECT kind, tags FROM node_ks.events WHERE user = ? AND day = ?',
        ['ana', day], { prepare: true });
      assert.deepEqual(after.rows.map((r) => [r.kind, r.tags]), [['k2', ['a', 'b']], ['k0', ['a', 'b', 'c']]]);

      await client.execute('CREATE TABLE node_ks.hits (page text PRIMARY KEY, n counter)');
      for (let i = 0; i < 3; i++) {
        await client.execute('UPDATE node_ks.hits SET n = n + 2 WHERE page = ?', ['/'], { prepare: true });
      }
      const hits = await client.execute("SELECT n FROM node_ks.hits WHERE page = '/'");
      assert.equal(hits.first().n.toString(), '6');
      // The driver logs each server warning; nothing else may have gone wrong.
      assert.deepEqual(client.problems.filter((p) => !p.includes('Received warning')), []);
    });
  });

  it('stops cleanly on SIGTERM', async () => {
    assert.ok(server.alive(), `sibyl died before the end:\n${server.output}`);
    const code = await server.stop('SIGTERM');
    assert.equal(code, 0, `exit code ${code}, signal ${server.exitSignal}\n${server.output}`);
  });
});
