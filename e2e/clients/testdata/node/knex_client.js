// knex 3 as an application uses it: schema building and introspection
// (hasTable, hasColumn, columnInfo), inserts with returning, joins,
// grouped queries, a transaction rolled back and one committed.
// Prints PASS at the end; any failure exits 1.
'use strict';
const knex = require('knex');

const [host, port] = process.argv.slice(2);

function check(what, got, want) {
  const g = JSON.stringify(got), w = JSON.stringify(want);
  if (g !== w) throw new Error(`${what}: got ${g}, want ${w}`);
}

async function main() {
  const db = knex({ client: 'pg', connection: { host, port: Number(port), user: 'zproxy', database: 'zproxy' } });
  await db.schema.dropTableIfExists('kx_item').dropTableIfExists('kx_list');
  await db.schema.createTable('kx_list', (t) => { t.increments('id'); t.string('title', 80).notNullable().unique(); t.timestamps(true, true); });
  await db.schema.createTable('kx_item', (t) => {
    t.bigIncrements('id');
    t.integer('list_id').notNullable().references('id').inTable('kx_list').onDelete('CASCADE');
    t.text('body');
    t.boolean('done').defaultTo(false);
    t.decimal('cost', 8, 2);
    t.index(['list_id', 'done']);
  });
  check('hasTable', await db.schema.hasTable('kx_item'), true);
  check('hasColumn', await db.schema.hasColumn('kx_item', 'cost'), true);
  const info = await db('kx_item').columnInfo();
  check('columnInfo', [info.body.type, info.done.defaultValue, info.cost.type], ['text', 'false', 'numeric']);

  const [list] = await db('kx_list').insert({ title: 'groceries' }).returning(['id', 'title']);
  check('returning', list.title, 'groceries');
  await db('kx_item').insert([{ list_id: list.id, body: 'milk', cost: 1.25 }, { list_id: list.id, body: 'bread', cost: 2.5, done: true }]);
  const rows = await db('kx_item as i').join('kx_list as l', 'l.id', 'i.list_id').select('l.title', 'i.body').orderBy('i.body');
  check('join', rows.map((r) => `${r.title}/${r.body}`), ['groceries/bread', 'groceries/milk']);
  const sums = await db('kx_item').select('done').sum({ total: 'cost' }).groupBy('done').orderBy('done');
  check('group', sums.map((r) => [r.done, r.total]), [[false, '1.25'], [true, '2.50']]);

  try {
    await db.transaction(async (trx) => { await trx('kx_item').del(); throw new Error('roll back'); });
  } catch (e) { if (e.message !== 'roll back') throw e; }
  check('rolled back', Number((await db('kx_item').count({ n: '*' }))[0].n), 2);
  await db.transaction(async (trx) => { await trx('kx_list').where({ id: list.id }).del(); });
  check('cascade', Number((await db('kx_item').count({ n: '*' }))[0].n), 0);
  await db.schema.dropTable('kx_item').dropTable('kx_list');
  await db.destroy();
  console.log('PASS');
}

main().catch((e) => { console.error(e); process.exit(1); });
