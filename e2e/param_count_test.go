package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestPrepareMoreParamsThanBindCarries prepares a statement with 65536
// parameters, one more than a Bind message's 16-bit count can carry:
// PostgreSQL prepares it, and its ParameterDescription holds every OID
// (the count field truncated, so clients count the OIDs), with one result
// column. Executing it fails in the client; the connection stays usable.
func TestPrepareMoreParamsThanBindCarries(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	conn := tg.Connect(t, pgx.QueryExecModeCacheStatement).PgConn()
	const n = 65536
	items := make([]string, n)
	args := make([][]byte, n)
	for i := range items {
		items[i] = fmt.Sprintf("($%d::text)", i+1)
		args[i] = []byte(strconv.Itoa(i))
	}
	sd, err := conn.Prepare(testCtx(t), "many_params", "VALUES "+strings.Join(items, ", "), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(sd.ParamOIDs) != n || len(sd.Fields) != 1 {
		t.Fatalf("%d parameters, %d fields; want %d, 1", len(sd.ParamOIDs), len(sd.Fields), n)
	}
	if sd.ParamOIDs[n-1] != 25 {
		t.Errorf("$%d has type OID %d, want text (25)", n, sd.ParamOIDs[n-1])
	}
	res := conn.ExecPrepared(testCtx(t), "many_params", args, nil, nil).Read()
	if res.Err == nil || !strings.Contains(res.Err.Error(), "65535 parameters") {
		t.Errorf("executing: %v, want the client's 65535-parameter limit", res.Err)
	}
	res = conn.ExecParams(testCtx(t), "SELECT 1", nil, nil, nil, nil).Read()
	if res.Err != nil || len(res.Rows) != 1 || string(res.Rows[0][0]) != "1" {
		t.Errorf("after: %v %q", res.Err, res.Rows)
	}
}
