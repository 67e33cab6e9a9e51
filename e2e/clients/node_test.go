package clients

import (
	"testing"
)

func TestNodePostgres(t *testing.T) {
	t.Parallel()
	node := requireTool(t, "node", "Debian package nodejs")
	requireFile(t, "testdata/node/node_modules/pg/package.json", "npm package pg, into testdata/node/node_modules")
	s := startServer(t)
	// TZ=UTC: node-postgres turns timestamp (without time zone) and date
	// values into Dates in the process's local zone.
	runClient(t, "testdata/node", []string{"TZ=UTC"}, node, "pg_client.js", s.host, s.port, "t_node")
	checkStoredRows(t, s, "t_node")
}
