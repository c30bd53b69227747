'use strict';
// Secondary indexes through the DataStax Node.js driver (cassandra-driver 4.x):
// the driver sees the indexes in its table metadata, and index queries page
// (fetchSize 2, with autoPage and with pageState by hand) to the rows a full
// scan filtered client-side gives, in the same order.
// Run with `SIBYL_BIN=... node --test index.test.js` in this folder.

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const cassandra = require('cassandra-driver');
const { SibylServer } = require('./sibyl_server');

const { Client } = cassandra;

const KS = 'node_index';


// eachRow with autoPage: every row, following the pages.
function eachRowAll(client, query, params, options) {
  return new Promise((resolve, reject) => {
    const rows = [];
    client.eachRow(query, params, { ...options, autoPage: true }, (n, row) => rows.push(row),
      (err) => (err ? reject(err) : resolve(rows)));
  });
}

const key = (row) => `${row.k}/${row.c}`;

describe('secondary indexes through the Node.js driver', () => {
  const server = new SibylServer();
  let client;
  process.on('exit', () => server.cleanup());

  before(async () => {
    await server.start();
    client = new Client({ contactPoints: ['127.0.0.1'], localDataCenter: 'datacenter1',
      protocolOptions: { port: server.port } });
    await client.connect();
    await client.execute(`CREATE KEYSPACE ${KS} WITH replication = ` +
      "{'class': 'SimpleStrategy', 'replication_factor': 1}");
    await client.execute(`CREATE TABLE ${KS}.t (k int, c int, v int, tags set<text>, ` +
      'm map<text, int>, PRIMARY KEY (k, c)) WITH CLUSTERING ORDER BY (c DESC)');
    await client.execute(`CREATE INDEX v_idx ON ${KS}.t (v)`);
    await client.execute(`CREATE INDEX ON ${KS}.t (keys(m))`);
    await client.execute(`CREATE INDEX ON ${KS}.t (tags)`);
    const insert = `INSERT INTO ${KS}.t (k, c, v, tags, m) VALUES (?, ?, ?, ?, ?)`;
    for (let k = 0; k < 25; k++) {
      for (let c = 0; c < k % 4; c++) {
        await client.execute(insert, [k, c, (k + c) % 3, [`t${c}`], { [`key${k % 2}`]: c }],
          { prepare: true });
      }
    }
  });

  after(async () => {
    if (client) await client.shutdown();
    const code = await server.stop();
    assert.equal(code, 0, `sibyl exited with ${code}\n${server.output}`);
    server.cleanup();
  });

  it('shows the indexes in the table metadata', async () => {
    const table = await client.metadata.getTable(KS, 't');
    assert.ok(table, 'no metadata for the table');
    const byName = Object.fromEntries(table.indexes.map((index) => [index.name, index]));
    assert.deepEqual(Object.keys(byName).sort(), ['t_m_idx', 't_tags_idx', 'v_idx']);
    assert.equal(byName.v_idx.target, 'v');
    assert.ok(byName.v_idx.isCompositesKind());
    assert.equal(byName.t_m_idx.target, 'keys(m)');
    assert.equal(byName.t_tags_idx.target, 'values(tags)');
    assert.deepEqual(byName.v_idx.options, { target: 'v' });
  });

  it('pages an index query to the filtered full scan', async () => {
    const all = (await client.execute(`SELECT * FROM ${KS}.t`, [], { fetchSize: 100000 })).rows;
    const expected = all.filter((row) => row.v === 1).map(key);
    assert.ok(expected.length > 5);
    const query = `SELECT * FROM ${KS}.t WHERE v = ?`;
    for (const prepare of [true, false]) {
      // Unprepared, a JavaScript number would be sent as a double: use a literal.
      const [q, params] = prepare ? [query, [1]] : [`SELECT * FROM ${KS}.t WHERE v = 1`, []];
      const rows = await eachRowAll(client, q, params, { prepare, fetchSize: 2 });
      assert.deepEqual(rows.map(key), expected, `eachRow autoPage, prepare=${prepare}`);
      // By hand, with pageState.
      const paged = [];
      let pageState;
      let pages = 0;
      do {
        const result = await client.execute(q, params, { prepare, fetchSize: 2, pageState });
        assert.ok(result.rows.length <= 2);
        paged.push(...result.rows);
        pageState = result.pageState;
        pages++;
        assert.ok(pages < 1000, 'paging does not end');
      } while (pageState);
      assert.deepEqual(paged.map(key), expected, `pageState, prepare=${prepare}`);
    }
    // The async iterator over pages of the driver.
    const iterated = [];
    const result = await client.execute(query, [1], { prepare: true, fetchSize: 2 });
    for await (const row of result) iterated.push(row);
    assert.deepEqual(iterated.map(key), expected);
  });

  it('pages collection index queries', async () => {
    const all = (await client.execute(`SELECT * FROM ${KS}.t`, [], { fetchSize: 100000 })).rows;
    const byKey = all.filter((row) => row.m && 'key1' in row.m).map(key);
    const rows = await eachRowAll(client, `SELECT * FROM ${KS}.t WHERE m CONTAINS KEY 'key1'`, [],
      { fetchSize: 2 });
    assert.deepEqual(rows.map(key), byKey);
    const byTag = all.filter((row) => row.tags && row.tags.includes('t1')).map(key);
    const tagged = await eachRowAll(client, `SELECT * FROM ${KS}.t WHERE tags CONTAINS ?`, ['t1'],
      { prepare: true, fetchSize: 3 });
    assert.deepEqual(tagged.map(key), byTag);
    assert.ok(byTag.length > 3);
  });
});
