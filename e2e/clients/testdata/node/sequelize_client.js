// Sequelize 6 as an application uses it: sync() (which reads
// pg_statio_all_tables and the constraints), CRUD, associations with
// include, a grouped count ordered by the qualified column, a unique
// violation, transactions. Prints PASS at the end; any failure exits 1.
'use strict';
const { Sequelize, DataTypes, UniqueConstraintError } = require('sequelize');

const [host, port] = process.argv.slice(2);

function check(what, got, want) {
  const g = JSON.stringify(got), w = JSON.stringify(want);
  if (g !== w) throw new Error(`${what}: got ${g}, want ${w}`);
}

async function main() {
  const sequelize = new Sequelize('zproxy', 'zproxy', null, { host, port: Number(port), dialect: 'postgres', logging: false });
  const Owner = sequelize.define('Owner', { name: { type: DataTypes.STRING, allowNull: false }, email: { type: DataTypes.STRING, unique: true } });
  const Pet = sequelize.define('Pet', { name: DataTypes.STRING, kind: DataTypes.STRING, born: DataTypes.DATEONLY });
  Owner.hasMany(Pet, { foreignKey: 'ownerId' });
  Pet.belongsTo(Owner, { foreignKey: 'ownerId' });

  await sequelize.sync({ force: true });
  await sequelize.sync({ alter: true }); // reads the schema back and changes nothing

  const ann = await Owner.create({ name: 'Ann', email: 'ann@example.com' });
  const bob = await Owner.create({ name: 'Bob', email: 'bob@example.com' });
  await Pet.bulkCreate([{ name: 'Rex', kind: 'dog', ownerId: ann.id, born: '2020-01-02' }, { name: 'Tom', kind: 'cat', ownerId: ann.id }, { name: 'Kit', kind: 'cat', ownerId: bob.id }]);

  const withPets = await Owner.findOne({ where: { name: 'Ann' }, include: Pet, order: [[Pet, 'name', 'ASC']] });
  check('include', withPets.Pets.map((p) => p.name), ['Rex', 'Tom']);
  const counts = await Pet.findAll({ attributes: ['ownerId', [sequelize.fn('COUNT', sequelize.col('id')), 'n']], group: ['ownerId'], order: [['ownerId', 'ASC']], raw: true });
  check('grouped count', counts.map((r) => [r.ownerId, Number(r.n)]), [[ann.id, 2], [bob.id, 1]]);

  let unique = false;
  try { await Owner.create({ name: 'Dup', email: 'ann@example.com' }); } catch (e) { unique = e instanceof UniqueConstraintError; }
  check('unique violation', unique, true);

  try {
    await sequelize.transaction(async (t) => {
      await Pet.update({ kind: 'lion' }, { where: { name: 'Tom' }, transaction: t });
      throw new Error('roll back');
    });
  } catch (e) { if (e.message !== 'roll back') throw e; }
  check('rolled back', (await Pet.findOne({ where: { name: 'Tom' } })).kind, 'cat');
  await sequelize.transaction(async (t) => { await Pet.destroy({ where: { kind: 'cat' }, transaction: t }); });
  check('committed', await Pet.count(), 1);
  check('dateonly', (await Pet.findOne({ where: { name: 'Rex' } })).born, '2020-01-02');
  await sequelize.close();
  console.log('PASS');
}

main().catch((e) => { console.error(e); process.exit(1); });
