// node-postgres with pg-cursor and pg-copy-streams against zproxy (or, with
// E2E_POSTGRES, PostgreSQL).
//
// Usage: node pg_stream_client.js HOST PORT USER DBNAME
//
// pg-cursor reads a portal in batches: Bind a named portal, then Execute
// with a row limit and Flush, again and again (PortalSuspended between
// batches), the portal kept open without a Sync. pg-copy-streams pipes COPY FROM STDIN and COPY TO STDOUT
// through Node streams. Prints one line per check and "PASS" at the end;
// exits non-zero at the first mismatch.
'use strict';

const assert = require('node:assert/strict');
const { Readable } = require('node:stream');
const { pipeline } = require('node:stream/promises');
const { Client } = require('pg');
const Cursor = require('pg-cursor');
const { from: copyFrom, to: copyTo } = require('pg-copy-streams');

const [host, port, user, database] = process.argv.slice(2);

function ok(what) {
  console.log('ok  ' + what);
}

function read(cursor, n) {
  return new Promise((resolve, reject) => cursor.read(n, (err, rows) => (err ? reject(err) : resolve(rows))));
}

function closeCursor(cursor) {
  return new Promise((resolve, reject) => cursor.close((err) => (err ? reject(err) : resolve())));
}

async function main() {
  const client = new Client({ host, port: Number(port), user, database, connectionTimeoutMillis: 10000 });
  await client.connect();
  try {
    await client.query('DROP TABLE IF EXISTS node_stream');
    await client.query('CREATE TABLE node_stream (id int PRIMARY KEY, label text, score double precision)');

    // COPY FROM STDIN through a stream, in chunks that split rows.
    const lines = [];
    for (let i = 1; i <= 500; i++) {
      lines.push(`${i}\t${i === 7 ? 'tab\\there' : 'row ' + i}\t${i === 9 ? '\\N' : i / 2}\n`);
    }
    const text = lines.join('');
    const chunks = [];
    for (let at = 0; at < text.length; at += 997) chunks.push(text.slice(at, at + 997));
    const ingest = client.query(copyFrom('COPY node_stream (id, label, score) FROM STDIN'));
    await pipeline(Readable.from(chunks), ingest);
    assert.equal(ingest.rowCount, 500);
    ok('copyFrom: 500 rows in chunks that split rows');
    const r = await client.query('SELECT label, score FROM node_stream WHERE id IN (7, 9) ORDER BY id');
    assert.deepEqual(r.rows, [{ label: 'tab\there', score: 3.5 }, { label: 'row 9', score: null }]);
    ok('copyFrom: escapes and NULL');

    // A bad row: the COPY fails and writes nothing.
    const bad = client.query(copyFrom('COPY node_stream (id, label) FROM STDIN (FORMAT csv)'));
    await assert.rejects(pipeline(Readable.from(['1000,fine\n', '1001\n']), bad), (err) => {
      assert.equal(err.code, '22P04');
      assert.equal(err.where, 'COPY node_stream, line 2: "1001"');
      return true;
    });
    ok('copyFrom: a short row is 22P04 with its line');
    assert.equal((await client.query('SELECT count(*)::int AS n FROM node_stream WHERE id >= 1000')).rows[0].n, 0);
    ok('copyFrom: nothing of the failed COPY');

    // COPY TO STDOUT through a stream.
    const out = [];
    const dump = client.query(copyTo('COPY (SELECT id, label FROM node_stream WHERE id <= 3 OR id = 7 ORDER BY id) TO STDOUT (FORMAT csv, HEADER)'));
    dump.on('data', (b) => out.push(b));
    await new Promise((resolve, reject) => { dump.on('end', resolve); dump.on('error', reject); });
    assert.equal(Buffer.concat(out).toString(), 'id,label\n1,row 1\n2,row 2\n3,row 3\n7,tab\there\n');
    ok('copyTo: CSV with a header');

    // pg-cursor: a portal read in batches; a second cursor after it.
    const a = client.query(new Cursor('SELECT id FROM node_stream WHERE id > $1 ORDER BY id', [100]));
    const first = await read(a, 3);
    assert.deepEqual(first.map((x) => x.id), [101, 102, 103]);
    let total = first.length;
    for (;;) {
      const rows = await read(a, 64);
      if (rows.length === 0) break;
      total += rows.length;
    }
    assert.equal(total, 400);
    ok('pg-cursor: 400 rows in batches');
    await closeCursor(a);
    const b = client.query(new Cursor('SELECT id, label FROM node_stream WHERE id <= $1 ORDER BY id DESC', [5]));
    assert.deepEqual(await read(b, 2), [{ id: 5, label: 'row 5' }, { id: 4, label: 'row 4' }]);
    assert.deepEqual((await read(b, 10)).map((x) => x.id), [3, 2, 1]);
    assert.deepEqual(await read(b, 10), []);
    ok('pg-cursor: a second cursor to its end');
    await closeCursor(b);
    const c = client.query(new Cursor('SELECT id FROM node_stream ORDER BY id'));
    assert.deepEqual((await read(c, 2)).map((x) => x.id), [1, 2]);
    await closeCursor(c);
    ok('pg-cursor: closed before its end');
    assert.equal((await client.query('SELECT count(*)::int AS n FROM node_stream')).rows[0].n, 500);
    ok('the connection goes on');
  } finally {
    await client.end();
  }
  console.log('PASS');
}

main().catch((err) => {
  console.log('FAIL: ' + (err.stack || err));
  process.exit(1);
});
