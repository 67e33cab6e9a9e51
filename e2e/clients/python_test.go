package clients

import (
	"os/exec"
	"testing"
)

// debianPython is the interpreter python3-psycopg2 installs into; a python3
// earlier on PATH (pyenv, a virtualenv) would not see the package.
const debianPython = "/usr/bin/python3"

func TestPsycopg2(t *testing.T) {
	t.Parallel()
	requireFile(t, debianPython, "Debian package python3")
	if err := exec.Command(debianPython, "-c", "import psycopg2").Run(); err != nil {
		missingClient(t, "psycopg2 is not importable by "+debianPython+" (Debian package python3-psycopg2)")
	}
	s := startServer(t)
	runClient(t, "testdata/python", nil, debianPython, "psycopg2_client.py", s.host, s.port, "t_psycopg2")
	checkStoredRows(t, s, "t_psycopg2")
}
