package clients

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/zproxy/zproxy/e2e/harness"
)

// The application-write scenarios of issue 15 in Python: psycopg2's
// transaction flows, SQLAlchemy's unit of work with pandas, and concurrent
// money transfers. Each runs against a fresh zproxy or, with E2E_POSTGRES,
// against that PostgreSQL (clientTarget).

// TestPsycopg2Transactions runs testdata/python/psycopg2_writes.py:
// autocommit off (insert, insert, rollback; a 23505 failing the block until
// rollback; commit; `with conn:`), autocommit on, RETURNING of a BIGSERIAL,
// and SAVEPOINT / ROLLBACK TO / RELEASE sent as SQL.
func TestPsycopg2Transactions(t *testing.T) {
	t.Parallel()
	requirePythonModule(t, "psycopg2", "python3-psycopg2")
	tg := newClientTarget(t)
	runClient(t, "testdata/python", nil, debianPython, append([]string{"psycopg2_writes.py"}, tg.args()...)...)
}

// TestSQLAlchemyWrites runs testdata/python/sqlalchemy_writes.py:
// declarative models with SERIAL keys, add_all + commit, rollback() after
// an IntegrityError, begin_nested() rolled back alone, and pandas to_sql
// (replace, append, with the index) read back with read_sql.
func TestSQLAlchemyWrites(t *testing.T) {
	t.Parallel()
	requirePythonModule(t, "psycopg2", "python3-psycopg2")
	requirePythonModule(t, "sqlalchemy", "python3-sqlalchemy")
	requirePythonModule(t, "pandas", "python3-pandas")
	tg := newClientTarget(t)
	runClient(t, "testdata/python", nil, debianPython, append([]string{"sqlalchemy_writes.py"}, tg.args()...)...)
}

// TestBankTransfers runs testdata/python/psycopg2_bank.py: psycopg2
// clients moving money between accounts in REPEATABLE READ transactions,
// retrying on 40001, while an auditor checks that the total never changes;
// afterwards every balance must match the transfers recorded with it. On
// the embedded store through one proxy, and on DynamoDB Local through two
// proxies sharing one table, the clients split between them.
func TestBankTransfers(t *testing.T) {
	t.Parallel()
	requirePythonModule(t, "psycopg2", "python3-psycopg2")
	bank := func(t *testing.T, user, db string, clients, transfers int, endpoints ...string) {
		args := []string{"psycopg2_bank.py", user, db, strconv.Itoa(clients), strconv.Itoa(transfers)}
		// Under -race on a loaded machine the DynamoDB run alone has taken
		// 15 s; the limit leaves room for the tests running beside it.
		runClientWithin(t, 3*time.Minute, "testdata/python", nil, debianPython, append(args, endpoints...)...)
	}
	t.Run("pebble", func(t *testing.T) {
		t.Parallel()
		tg := newClientTarget(t)
		bank(t, tg.user, tg.dbname, 8, 40, tg.host+":"+tg.port)
	})
	t.Run("dynamodb_two_proxies", func(t *testing.T) {
		t.Parallel()
		if os.Getenv("E2E_POSTGRES") != "" {
			t.Skip("E2E_POSTGRES: the pebble subtest ran the scenario against PostgreSQL")
		}
		ep := dynamoEndpoint(t)
		table := fmt.Sprintf("clients_bank_%d_%d", os.Getpid(), time.Now().UnixNano())
		a, b := startDynamoServer(t, ep, table), startDynamoServer(t, ep, table)
		// DynamoDB's round trips make each transfer slower than on Pebble.
		bank(t, "zproxy", "zproxy", 4, 10, a.host+":"+a.port, b.host+":"+b.port)
	})
}

// dynamoEndpoint is the DynamoDB Local of the test run; it skips the test
// without one (fails under CI, where the test command always starts one).
func dynamoEndpoint(t *testing.T) string {
	t.Helper()
	ep := os.Getenv("DYNAMODB_ENDPOINT")
	if ep == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("DYNAMODB_ENDPOINT is not set; the test command starts DynamoDB Local")
		}
		t.Skip("DYNAMODB_ENDPOINT not set (run scripts/dynamodb-local.sh start, or make test)")
	}
	return ep
}

// startDynamoServer starts zproxy on DynamoDB Local's table (created when
// missing), with the dummy credentials DynamoDB Local accepts, stopped with
// SIGTERM at the end of the test.
func startDynamoServer(t *testing.T, endpoint, table string) *server {
	t.Helper()
	p, err := harness.StartEnv(zproxyBin,
		[]string{"AWS_ACCESS_KEY_ID=zproxytest", "AWS_SECRET_ACCESS_KEY=zproxytest", "AWS_REGION=us-east-1"},
		"--listen", "127.0.0.1:0",
		"--metrics-listen", "",
		"--backend", "dynamodb", "--dynamodb-endpoint", endpoint, "--dynamodb-table", table,
		"--shutdown-timeout", "20s")
	if err != nil {
		t.Fatal(err)
	}
	return watchServer(t, p)
}
