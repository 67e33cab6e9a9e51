package clients

import "testing"

// The Node ORMs as applications use them (issue 24), each against a zproxy
// of its own: testdata/node/sequelize_client.js (sync twice, include, a
// grouped count ordered by the qualified column, a unique violation,
// transactions), typeorm_client.js (synchronize twice with nothing left to
// change, uuid-ossp keys, findOne with relations, transactions) and
// knex_client.js (schema building and introspection, returning, joins,
// grouping, transactions, ON DELETE CASCADE).
func TestNodeORMs(t *testing.T) {
	for _, c := range []struct{ name, module, script string }{
		{"sequelize", "sequelize", "sequelize_client.js"},
		{"typeorm", "typeorm", "typeorm_client.js"},
		{"knex", "knex", "knex_client.js"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			node := requireTool(t, "node", "Debian package nodejs")
			requireFile(t, "testdata/node/node_modules/"+c.module+"/package.json", "npm package "+c.module+", into testdata/node/node_modules")
			s := startServer(t)
			runClient(t, "testdata/node", []string{"TZ=UTC"}, node, c.script, s.host, s.port)
		})
	}
}
