// TypeORM 0.3 as an application uses it, without decorators (EntitySchema):
// synchronize (its schema introspection, twice: the second finds nothing to
// change), the uuid-ossp extension for uuid keys, CRUD, findOne with a
// relation (a DISTINCT subquery ordered by an alias), a transaction.
// Prints PASS at the end; any failure exits 1.
'use strict';
require('reflect-metadata');
const { DataSource, EntitySchema } = require('typeorm');

const [host, port] = process.argv.slice(2);

function check(what, got, want) {
  const g = JSON.stringify(got), w = JSON.stringify(want);
  if (g !== w) throw new Error(`${what}: got ${g}, want ${w}`);
}

const Author = new EntitySchema({
  name: 'Author', tableName: 'ty_author',
  columns: { id: { type: 'uuid', primary: true, generated: 'uuid' }, name: { type: 'varchar', length: 100 }, email: { type: 'varchar', unique: true } },
  relations: { books: { type: 'one-to-many', target: 'Book', inverseSide: 'author' } },
});
const Book = new EntitySchema({
  name: 'Book', tableName: 'ty_book',
  columns: { id: { type: 'int', primary: true, generated: 'increment' }, title: { type: 'text' }, pages: { type: 'int', nullable: true } },
  relations: { author: { type: 'many-to-one', target: 'Author', joinColumn: { name: 'authorId' }, inverseSide: 'books', onDelete: 'CASCADE' } },
});

async function main() {
  const options = { type: 'postgres', host, port: Number(port), username: 'zproxy', database: 'zproxy', entities: [Author, Book], uuidExtension: 'uuid-ossp' };
  let ds = new DataSource({ ...options, synchronize: true, dropSchema: true });
  await ds.initialize();
  await ds.destroy();
  ds = new DataSource(options);
  await ds.initialize();
  const pending = await ds.driver.createSchemaBuilder().log();
  check('second synchronize', pending.upQueries.map((q) => q.query), []);

  const authors = ds.getRepository('Author');
  const books = ds.getRepository('Book');
  const ann = await authors.save({ name: 'Ann', email: 'ann@example.com' });
  await books.save([{ title: 'Emma', pages: 474, author: ann }, { title: 'Persuasion', author: ann }]);
  const found = await authors.findOne({ where: { email: 'ann@example.com' }, relations: { books: true }, order: { books: { title: 'ASC' } } });
  check('findOne with relations', found.books.map((b) => b.title), ['Emma', 'Persuasion']);
  check('uuid key', /^[0-9a-f-]{36}$/.test(found.id), true);
  const page = await authors.find({ relations: { books: true }, take: 1, skip: 0 });
  check('paged find with relations', page.length, 1);

  await ds.transaction(async (m) => { await m.getRepository('Book').update({ title: 'Emma' }, { pages: 475 }); });
  check('committed', (await books.findOneBy({ title: 'Emma' })).pages, 475);
  try {
    await ds.transaction(async (m) => { await m.getRepository('Book').delete({ title: 'Emma' }); throw new Error('roll back'); });
  } catch (e) { if (e.message !== 'roll back') throw e; }
  check('rolled back', await books.count(), 2);
  await ds.destroy();
  console.log('PASS');
}

main().catch((e) => { console.error(e); process.exit(1); });
