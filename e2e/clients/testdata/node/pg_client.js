// node-postgres against zproxy: the scenario of e2e/clients (see doc.go there).
//
// Usage: node pg_client.js HOST PORT TABLE   (run with TZ=UTC)
//
// A query with parameters goes through node-postgres's default extended
// protocol (unnamed Parse with untyped parameters, Bind with text values and
// Buffers in binary, Describe portal, Execute, Sync); one without parameters
// goes as a simple Query; a query with a name uses a named prepared
// statement. Prints one line per check and exits non-zero on the first
// mismatch.
'use strict';

const assert = require('node:assert/strict');
const { Client } = require('pg');

const [host, port, table] = process.argv.slice(2);

const COLUMNS = ['id', 'sm', 'i', 'bi', 'r', 'd', 'tx', 'vc', 'b', 'ts', 'tz', 'dt', 'by', 'u'];
// The type OIDs PostgreSQL reports for the columns, in order.
const OIDS = [23, 21, 23, 20, 700, 701, 25, 1043, 16, 1114, 1184, 1082, 17, 2950];

// What goes in (parameters) and what node-postgres's default parsers must
// make of the result: int8 comes back as a string, date as a local (here
// UTC) midnight Date, timestamps as Dates (millisecond precision).
const ROWS = [
  {
    in: [1, 12345, 2147483647, '-9223372036854775808', 1.5, 3.141592653589793,
      'héllo, wörld ☃', 'varchar', true, '2024-02-29 13:45:56.789012',
      new Date('2024-06-30T23:59:59.500Z'), '2024-02-29',
      Buffer.from([0x00, 0x01, 0xff, 0x27, 0x5c]), 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'],
    out: [1, 12345, 2147483647, '-9223372036854775808', 1.5, 3.141592653589793,
      'héllo, wörld ☃', 'varchar', true, new Date('2024-02-29T13:45:56.789Z'),
      new Date('2024-06-30T23:59:59.500Z'), new Date('2024-02-29T00:00:00Z'),
      Buffer.from([0x00, 0x01, 0xff, 0x27, 0x5c]), 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'],
  },
  {
    in: [2, null, null, null, null, null, null, null, null, null, null, null, null, null],
    out: [2, null, null, null, null, null, null, null, null, null, null, null, null, null],
  },
  {
    in: [3, -32768, 0, '9223372036854775807', -0.25, 1e300, '', 'x', false,
      '1999-12-31 23:59:59', '2001-02-03 04:05:06+05:30', '1900-01-01',
      Buffer.alloc(0), '00000000-0000-0000-0000-000000000000'],
    out: [3, -32768, 0, '9223372036854775807', -0.25, 1e300, '', 'x', false,
      new Date('1999-12-31T23:59:59Z'), new Date('2001-02-02T22:35:06Z'),
      new Date('1900-01-01T00:00:00Z'), Buffer.alloc(0), '00000000-0000-0000-0000-000000000000'],
  },
];

function placeholders(from, n) {
  return '(' + Array.from({ length: n }, (_, k) => '$' + (from + k)).join(', ') + ')';
}

async function expectError(client, text, values, code) {
  try {
    await client.query(text, values);
  } catch (e) {
    assert.equal(e.code, code, `${text}: SQLSTATE ${e.code} (${e.message}), want ${code}`);
    console.log(`ok: ${text} -> ${code}`);
    return;
  }
  assert.fail(`${text}: no error, want SQLSTATE ${code}`);
}

async function countRows(client) {
  const res = await client.query(`SELECT count(*) AS n FROM ${table}`);
  return res.rows[0].n;
}

async function main() {
  const client = new Client({
    host, port: Number(port), user: 'zproxy', database: 'zproxy',
    application_name: 'zproxy-e2e-node-postgres', connectionTimeoutMillis: 10000,
  });
  await client.connect();

  await client.query(`CREATE TABLE ${table} (id integer NOT NULL, sm smallint, i integer,
    bi bigint, r real, d double precision, tx text, vc varchar(20), b boolean, ts timestamp,
    tz timestamptz, dt date, by bytea, u uuid, PRIMARY KEY (id)) WITH (shards = 2)`);
  console.log('ok: create table (simple query)');

  const n = COLUMNS.length;
  let res = await client.query(`INSERT INTO ${table} VALUES ${placeholders(1, n)}`, ROWS[0].in);
  assert.equal(res.rowCount, 1, 'insert of one row: rowCount');
  res = await client.query(`INSERT INTO ${table} VALUES ${placeholders(1, n)}, ${placeholders(n + 1, n)}`,
    ROWS[1].in.concat(ROWS[2].in));
  assert.equal(res.rowCount, 2, 'insert of two rows: rowCount');
  console.log('ok: inserts with parameters of every type (extended protocol)');

  // Without parameters: a simple Query, text results.
  res = await client.query(`SELECT ${COLUMNS.join(', ')} FROM ${table} ORDER BY id`);
  checkRows('simple protocol', res);

  // With a parameter: extended protocol.
  res = await client.query(`SELECT ${COLUMNS.join(', ')} FROM ${table} WHERE id >= $1 ORDER BY id`, [1]);
  checkRows('extended protocol', res);

  // A named statement, run three times: Parse once, then Bind/Execute.
  for (let k = 0; k < 3; k++) {
    res = await client.query({
      name: 'by_id',
      text: `SELECT id, tx, bi FROM ${table} WHERE id = $1`,
      values: [ROWS[k].in[0]],
    });
    assert.deepEqual(res.rows, [{ id: ROWS[k].out[0], tx: ROWS[k].out[6], bi: ROWS[k].out[3] }],
      `named statement, run ${k}`);
  }
  console.log('ok: named prepared statement run 3 times');

  res = await client.query(`UPDATE ${table} SET tx = $1 WHERE id = $2`, ['updated', 2]);
  assert.equal(res.rowCount, 1, 'update rowCount');
  res = await client.query(`SELECT tx FROM ${table} WHERE id = $1`, [2]);
  assert.deepEqual(res.rows, [{ tx: 'updated' }], 'value after update');
  await client.query(`UPDATE ${table} SET tx = NULL WHERE id = 2`);
  console.log('ok: update with parameters');

  await expectError(client, `INSERT INTO ${table} (id, tx) VALUES ($1, $2)`, [1, 'dup'], '23505');
  assert.equal(await countRows(client), '3', 'count after the duplicate key error');
  await expectError(client, 'SELECT * FROM no_such_table WHERE id = $1', [1], '42P01');
  await expectError(client, 'SELECT * FROM no_such_table', undefined, '42P01');
  assert.equal(await countRows(client), '3', 'count after the unknown table errors');
  console.log('ok: connection usable after errors');

  await client.end();
  console.log('PASS');
}

function checkRows(what, res) {
  assert.deepEqual(res.fields.map((f) => f.name), COLUMNS, `${what}: column names`);
  assert.deepEqual(res.fields.map((f) => f.dataTypeID), OIDS, `${what}: column type OIDs`);
  assert.equal(res.rows.length, ROWS.length, `${what}: row count`);
  res.rows.forEach((row, k) => {
    COLUMNS.forEach((name, c) => {
      assert.deepEqual(row[name], ROWS[k].out[c], `${what}: row ${k + 1} column ${name}`);
    });
  });
  console.log(`ok: read back ${res.rows.length} rows over the ${what}, values and type OIDs exact`);
}

main().catch((e) => {
  console.log('FAIL: ' + (e && e.stack ? e.stack : e));
  process.exit(1);
});
