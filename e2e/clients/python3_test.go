package clients

import (
	"os/exec"
	"testing"
)

// requirePythonModule skips (fails in CI) when Debian's python3 cannot
// import module.
func requirePythonModule(t *testing.T, module, pkg string) {
	t.Helper()
	requireFile(t, debianPython, "Debian package python3")
	if err := exec.Command(debianPython, "-c", "import "+module).Run(); err != nil {
		missingClient(t, module+" is not importable by "+debianPython+" (Debian package "+pkg+")")
	}
}

// TestAsyncpg runs testdata/python/asyncpg_client.py: asyncpg's pipelined
// extended protocol in binary format (errors at Parse and Describe answered
// at Flush), its cursors (portals read in chunks, MOVE FORWARD on a portal)
// and its COPY functions.
func TestAsyncpg(t *testing.T) {
	t.Parallel()
	requirePythonModule(t, "asyncpg", "python3-asyncpg")
	tg := newClientTarget(t)
	runClient(t, "testdata/python", nil, debianPython, append([]string{"asyncpg_client.py"}, append(tg.args(), "connect", "copy")...)...)
}

// TestPsycopg3 runs testdata/python/psycopg3_client.py: prepared
// statements and the DEALLOCATE ALL after a rollback, a pipeline with an
// error, COPY in text and binary, and named cursors.
func TestPsycopg3(t *testing.T) {
	t.Parallel()
	requirePythonModule(t, "psycopg", "python3-psycopg")
	tg := newClientTarget(t)
	runClient(t, "testdata/python", nil, debianPython, append([]string{"psycopg3_client.py"}, tg.args()...)...)
}
