package clients

import "testing"

// TestPgcliCompletion runs testdata/python/pgcli_client.py: the catalog
// queries pgcli 3.5's completion refresher sends (schemas, tables, views,
// their columns, foreign keys, functions with their argument types read
// as proargtypes::regtype[], user types, databases), checked against
// PostgreSQL 15's answers over the same small schema. It runs in a
// database of its own on PostgreSQL (E2E_POSTGRES).
func TestPgcliCompletion(t *testing.T) {
	t.Parallel()
	requirePythonModule(t, "pgcli", "pgcli")
	c := newCatalogTarget(t)
	runClient(t, "testdata/python", nil, debianPython, "pgcli_client.py", c.host, c.port, c.user, c.db)
}
