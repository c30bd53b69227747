'use strict';
// A three-node cluster (`sibyl cluster start`: etcd and nodes on
// 127.0.0.1..3, free ports, a temporary directory) through the DataStax
// Node.js driver given 127.0.0.1 only. Tested: the driver discovers the other
// two nodes; its replica map agrees with the keyspace's replication factor;
// prepared statements are coordinated by the replica of their key; a
// statement prepared through one node executes on the others; after DDL the
// nodes agree on the schema and the driver sees the table; when a node other
// than the contact point is killed, QUORUM requests keep succeeding and ALL is
// refused with Cassandra's Unavailable; a keyspace created through another
// node reaches the driver's metadata (every node sends SCHEMA_CHANGE).
//
// Run with `node --test cluster.test.js` in this folder; the server is
// $SIBYL_BIN, or <repo>/build/sibyl.

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { execFile, spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const cassandra = require('cassandra-driver');
const { freePort } = require('./free_port');

const { Client, policies, types } = cassandra;
const { consistencies, responseErrorCodes } = types;

const REPO = path.resolve(__dirname, '..', '..', '..');
const SIBYL_BIN = process.env.SIBYL_BIN || path.join(REPO, 'build', 'sibyl');
const NODES = 3;
const ADDRESSES = Array.from({ length: NODES }, (_, i) => `127.0.0.${i + 1}`);
// One replica per key: only one node may coordinate a token-aware request.
const SINGLE = 'single_replica';
// Three replicas: QUORUM still has two nodes when one dies.
const TRIPLE = 'three_replicas';
const KEYS = Array.from({ length: 40 }, (_, i) => i);

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function waitFor(condition, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await sleep(250);
  }
  throw new Error(`timed out waiting for ${what}`);
}

// The cluster of `sibyl cluster start`, plus nodes restarted by the tests.
class LocalCluster {
  constructor() {
    this.workdir = fs.mkdtempSync(path.join(os.tmpdir(), 'sibyl-node-cluster-'));
    this.restarted = [];
  }

  command(verb, ...extra) {
    return new Promise((resolve, reject) => {
      execFile(SIBYL_BIN, ['cluster', verb, '--dir', this.dir, ...extra], { timeout: 120000 },
        (error, stdout, stderr) => (error ? reject(new Error(`sibyl cluster ${verb}: ${error.message}\n${stdout}${stderr}`))
          : resolve(stdout)));
    });
  }

  async start() {
    if (!fs.existsSync(SIBYL_BIN)) {
      throw new Error(`no sibyl binary at ${SIBYL_BIN}: build it (scripts/build.sh) or set SIBYL_BIN`);
    }
    // A port can be taken between the probe and the bind (etcd also binds
    // the etcd port + 1): a start that fails with "in use" is retried on new
    // ports, in a new directory.
    for (let attempt = 1; ; attempt++) {
      this.dir = path.join(this.workdir, `cluster${attempt}`);
      // Drawn until distinct: a port is free again once its probe closes.
      const ports = new Set();
      while (ports.size < 3) ports.add(await freePort());
      [this.nativePort, this.storagePort, this.etcdPort] = [...ports];
      try {
        await this.command('start', '--nodes', String(NODES), '--native-port', String(this.nativePort),
          '--storage-port', String(this.storagePort), '--etcd-port', String(this.etcdPort),
          '--prometheus-port', '0');
        return;
      } catch (err) {
        await this.command('stop').catch(() => {});
        if (attempt === 3 || !/in use/.test(err.message)) throw err;
      }
    }
  }

  nodeDir(i) {
    return path.join(this.dir, `node${i}`);
  }

  pid(i) {
    return Number(fs.readFileSync(path.join(this.nodeDir(i), 'pid'), 'utf8').split(/\s+/)[0]);
  }

  // Starts node i again with its data directory, as `cluster start` did.
  startNode(i) {
    const log = fs.openSync(path.join(this.nodeDir(i), 'sibyl-test.log'), 'a');
    const address = ADDRESSES[i - 1];
    const child = spawn(SIBYL_BIN, ['start', '--cluster-name', 'Test Cluster',
      '--listen-address', address, '--rpc-address', address,
      '--native-transport-port', String(this.nativePort), '--storage-port', String(this.storagePort),
      '--prometheus-port', '0',
      '--data-dir', path.join(this.nodeDir(i), 'data'), '--seeds', `127.0.0.1:${this.storagePort}`,
      '--metadata-store', 'etcd', '--etcd-endpoints', `http://127.0.0.1:${this.etcdPort}`],
    { stdio: ['ignore', log, log] });
    fs.closeSync(log);
    this.restarted.push(child);
  }

  async waitUntilServing(i) {
    const accepts = () => new Promise((resolve) => {
      const socket = net.connect({ host: ADDRESSES[i - 1], port: this.nativePort });
      socket.setTimeout(1000);
      socket.once('connect', () => { socket.destroy(); resolve(true); });
      socket.once('error', () => resolve(false));
      socket.once('timeout', () => { socket.destroy(); resolve(false); });
    });
    await waitFor(accepts, 60000, `node ${ADDRESSES[i - 1]} to accept connections`);
  }

  log(i) {
    try {
      return fs.readFileSync(path.join(this.nodeDir(i), 'sibyl.log'), 'utf8');
    } catch {
      return '';
    }
  }

  async stop() {
    try {
      if (this.nativePort) await this.command('stop');
    } finally {
      for (const child of this.restarted) {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      }
      fs.rmSync(this.workdir, { recursive: true, force: true });
    }
  }
}

function newClient(cluster, options = {}) {
  return new Client({
    contactPoints: ['127.0.0.1'],
    localDataCenter: 'datacenter1',
    ...options,
    protocolOptions: { port: cluster.nativePort },
  });
}

async function withClient(cluster, options, body) {
  const client = newClient(cluster, options);
  try {
    await client.connect();
    return await body(client);
  } finally {
    await client.shutdown();
  }
}

// The routing key of an int partition key: its 4-byte big-endian encoding.
function routingKey(k) {
  const buffer = Buffer.alloc(4);
  buffer.writeInt32BE(k);
  return buffer;
}

describe('a three-node cluster through the Node.js driver', () => {
  const cluster = new LocalCluster();
  process.on('exit', () => {
    for (const child of cluster.restarted) if (child.exitCode === null) child.kill('SIGKILL');
  });

  before(async () => {
    await cluster.start();
    // The keyspaces exist before the tests' clients connect: this driver
    // loads keyspace metadata (and so its replica maps) at connect time.
    await withClient(cluster, { policies: { loadBalancing: new policies.loadBalancing.AllowListPolicy(
      new policies.loadBalancing.RoundRobinPolicy(), [`127.0.0.1:${cluster.nativePort}`]) } }, async (client) => {
      for (const [keyspace, factor] of [[SINGLE, 1], [TRIPLE, 3]]) {
        await client.execute(`CREATE KEYSPACE ${keyspace} WITH replication = ` +
          `{'class': 'SimpleStrategy', 'replication_factor': ${factor}}`);
        await client.execute(`CREATE TABLE ${keyspace}.t (k int PRIMARY KEY, v text)`);
      }
    });
  });

  after(() => cluster.stop());

  it('discovers every node from one contact point and connects to each', async () => {
    await withClient(cluster, {}, async (client) => {
      assert.equal(client.hosts.length, NODES);
      const addresses = client.hosts.values().map((h) => h.address).sort();
      assert.deepEqual(addresses, ADDRESSES.map((a) => `${a}:${cluster.nativePort}`));
      for (const host of client.hosts.values()) {
        assert.equal(host.datacenter, 'datacenter1');
        assert.equal(host.rack, 'rack1');
        assert.equal(host.tokens.length, 16);
      }
      // The driver warms up a pool for every local host before connect() resolves.
      assert.deepEqual(client.getState().getConnectedHosts().map((h) => h.address).sort(), addresses);
    });
  });

  it('computes as many replicas as the replication factor', async () => {
    await withClient(cluster, {}, async (client) => {
      const owners = new Set();
      for (const k of KEYS) {
        const single = client.metadata.getReplicas(SINGLE, routingKey(k));
        assert.equal(single.length, 1, `key ${k}`);
        owners.add(single[0].address);
        const triple = client.metadata.getReplicas(TRIPLE, routingKey(k));
        assert.equal(new Set(triple.map((h) => h.address)).size, 3, `key ${k}`);
      }
      // 40 keys over 48 tokens: each node is the replica of some.
      assert.equal(owners.size, NODES);
    });
  });

  it('sends prepared statements to the replica of their key', async () => {
    await withClient(cluster, {}, async (client) => {
      const insert = `INSERT INTO ${SINGLE}.t (k, v) VALUES (?, ?)`;
      const select = `SELECT v FROM ${SINGLE}.t WHERE k = ?`;
      const options = { prepare: true, consistency: consistencies.one };
      for (const k of KEYS) {
        const [replica] = client.metadata.getReplicas(SINGLE, routingKey(k));
        const written = await client.execute(insert, [k, `value ${k}`], options);
        assert.equal(written.info.queriedHost, replica.address, `insert of key ${k}`);
        const read = await client.execute(select, [k], options);
        assert.equal(read.info.queriedHost, replica.address, `select of key ${k}`);
        assert.equal(read.first().v, `value ${k}`);
      }
    });
  });

  it('executes a statement prepared through one node on the others', async () => {
    // The driver does not expose prepared ids; what it does with them shows
    // whether they are equal. prepareOnAllHosts off: the statement is
    // prepared on the first node only, and the driver keeps that node's id.
    // Another node answers it UNPREPARED, the driver prepares it there and
    // retries with the first id, which that node knows only if its id is
    // the same.
    const client = newClient(cluster, { prepareOnAllHosts: false });
    const reprepared = [];
    client.on('log', (level, className, message) => {
      if (/not prepared on host/.test(message)) reprepared.push(message);
    });
    try {
      await client.connect();
      // A text no other test prepares: no node has it yet.
      const select = `SELECT k, v FROM ${SINGLE}.t WHERE k = ?`;
      const hosts = ADDRESSES.map((a) => client.hosts.get(`${a}:${cluster.nativePort}`));
      for (const host of hosts) {
        const read = await client.execute(select, [3], { prepare: true, host, consistency: consistencies.one });
        assert.equal(read.info.queriedHost, host.address);
        assert.equal(read.first().v, 'value 3');
      }
      // Exactly one UNPREPARED per other node: with a different id there
      // would be another after the re-prepare.
      assert.equal(reprepared.length, NODES - 1, reprepared.join('\n'));
    } finally {
      await client.shutdown();
    }
  });

  it('waits for schema agreement after DDL and loads the new table', async () => {
    await withClient(cluster, {}, async (client) => {
      const created = await client.execute(`CREATE TABLE ${TRIPLE}.agreed (k int PRIMARY KEY, n int)`);
      assert.equal(created.info.isSchemaInAgreement, true);
      assert.equal(await client.metadata.checkSchemaAgreement(), true);
      const table = await client.metadata.getTable(TRIPLE, 'agreed');
      assert.ok(table, 'no metadata for the new table');
      assert.deepEqual(table.partitionKeys.map((c) => c.name), ['k']);
      assert.deepEqual(table.columns.map((c) => c.name).sort(), ['k', 'n']);
      // Every node already knows the table: a write at ALL reaches them all.
      await client.execute(`INSERT INTO ${TRIPLE}.agreed (k, n) VALUES (1, 1)`, [],
        { prepare: true, consistency: consistencies.all });
    });
  });

  it('learns of a keyspace created through another node', async () => {
    await withClient(cluster, {}, async (watcher) => {
      // The control connection is on the only contact point, node 1.
      assert.equal(watcher.controlConnection.host.address, `127.0.0.1:${cluster.nativePort}`);
      const other = `127.0.0.2:${cluster.nativePort}`;
      await withClient(cluster, {
        contactPoints: ['127.0.0.2'],
        policies: { loadBalancing: new policies.loadBalancing.AllowListPolicy(
          new policies.loadBalancing.RoundRobinPolicy(), [other]) },
      }, async (client) => {
        const created = await client.execute("CREATE KEYSPACE elsewhere WITH replication = " +
          "{'class': 'SimpleStrategy', 'replication_factor': 3}");
        assert.equal(created.info.queriedHost, other);
      });
      await waitFor(() => watcher.metadata.keyspaces.elsewhere !== undefined, 5000,
        "the watcher's metadata to list the keyspace");
      assert.equal(watcher.metadata.getReplicas('elsewhere', routingKey(1)).length, 3);
    });
  });

  // Last: it kills a node (and restarts it, for a rerun of a single test).
  it('keeps QUORUM requests succeeding when a node other than the contact point is killed', async () => {
    const victim = 3;
    const dead = `${ADDRESSES[victim - 1]}:${cluster.nativePort}`;
    await withClient(cluster, {}, async (client) => {
      const insert = `INSERT INTO ${TRIPLE}.t (k, v) VALUES (?, ?)`;
      const select = `SELECT v FROM ${TRIPLE}.t WHERE k = ?`;
      // Idempotent: this driver retries a request whose connection broke
      // under it only then (it may have been applied); both statements are.
      const options = { prepare: true, consistency: consistencies.quorum, isIdempotent: true };
      for (const k of KEYS) await client.execute(insert, [k, 'before'], options);
      try {
        process.kill(cluster.pid(victim), 'SIGKILL');
        const coordinators = new Set();
        // No wait for the driver or the nodes to notice: a request on a
        // connection that breaks is retried on the next replica.
        for (const k of KEYS) {
          const written = await client.execute(insert, [k, 'after'], options);
          const read = await client.execute(select, [k], options);
          assert.equal(read.first().v, 'after', `key ${k}`);
          coordinators.add(written.info.queriedHost).add(read.info.queriedHost);
        }
        assert.ok(!coordinators.has(dead), [...coordinators].join(', '));
        assert.equal(client.hosts.get(dead).isUp(), false);

        // Once the nodes convict the dead one, ALL is refused up front.
        let refusal = null;
        await waitFor(async () => {
          try {
            await client.execute(select, [1], { ...options, consistency: consistencies.all });
          } catch (err) {
            if (err.code === responseErrorCodes.unavailableException) refusal = err;
            return refusal !== null;
          }
          return false;
        }, 30000, 'the nodes to refuse ALL with Unavailable');
        assert.equal(refusal.consistencies, consistencies.all);
        assert.equal(refusal.required, 3);
        assert.equal(refusal.alive, 2);
        assert.notEqual(refusal.coordinator, dead);
        assert.match(cluster.log(1), /Node \S+ is now DOWN/);
      } finally {
        cluster.startNode(victim);
        await cluster.waitUntilServing(victim);
      }
    });
  });
});
