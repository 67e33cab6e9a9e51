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

// TestNodeStreams runs testdata/node/pg_stream_client.js: pg-cursor's
// batches of a portal (Execute with a row limit, Flush, no Sync) and
// pg-copy-streams' COPY FROM STDIN and TO STDOUT.
func TestNodeStreams(t *testing.T) {
	t.Parallel()
	node := requireTool(t, "node", "Debian package nodejs")
	for _, m := range []string{"pg", "pg-cursor", "pg-copy-streams"} {
		requireFile(t, "testdata/node/node_modules/"+m+"/package.json", "npm package "+m+", into testdata/node/node_modules")
	}
	tg := newClientTarget(t)
	runClient(t, "testdata/node", nil, node, append([]string{"pg_stream_client.js"}, tg.args()...)...)
}
