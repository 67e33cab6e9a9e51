package dynamodb

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// The tests run against a real DynamoDB API: DYNAMODB_ENDPOINT when set,
// otherwise a DynamoDB Local this TestMain starts with
// scripts/dynamodb-local.sh on a free port (and stops afterwards). Without
// either, every test that needs DynamoDB skips, saying how to install it.
var (
	endpoint   string
	skipReason string
	scriptPath string
)

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	scriptPath = filepath.Join(root, "scripts", "dynamodb-local.sh")
	if ep := os.Getenv("DYNAMODB_ENDPOINT"); ep != "" {
		endpoint = ep
		return m.Run()
	}
	if err := exec.Command(scriptPath, "check").Run(); err != nil {
		skipReason = "no DynamoDB: set DYNAMODB_ENDPOINT, or run scripts/dynamodb-local.sh install (needs Java 17+ and npm)"
		return m.Run()
	}
	port, err := freePort()
	if err != nil {
		fmt.Fprintln(os.Stderr, "dynamodb tests:", err)
		return 1
	}
	if out, err := localCommand(port, "", "start"); err != nil {
		fmt.Fprintf(os.Stderr, "dynamodb tests: starting DynamoDB Local: %v\n%s", err, out)
		return 1
	}
	defer func() {
		if out, err := localCommand(port, "", "stop"); err != nil {
			fmt.Fprintf(os.Stderr, "dynamodb tests: stopping DynamoDB Local: %v\n%s", err, out)
		}
	}()
	endpoint = fmt.Sprintf("http://127.0.0.1:%d", port)
	return m.Run()
}

// localCommand runs the DynamoDB Local script for the instance on port
// (persisting to dbPath when not empty).
func localCommand(port int, dbPath, verb string) ([]byte, error) {
	cmd := exec.Command(scriptPath, verb)
	cmd.Env = append(os.Environ(), fmt.Sprintf("DYNAMODB_LOCAL_PORT=%d", port), "DYNAMODB_LOCAL_DBPATH="+dbPath)
	return cmd.CombinedOutput()
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func requireDynamo(t testing.TB) {
	t.Helper()
	if endpoint == "" {
		t.Skip(skipReason)
	}
}

// uniqueTable names a table no other test uses.
func uniqueTable(t testing.TB) string {
	b := make([]byte, 6)
	if _, err := crand.Read(b); err != nil {
		t.Fatal(err)
	}
	name := strings.NewReplacer("/", "-", " ", "-").Replace(t.Name())
	if len(name) > 150 {
		name = name[:150]
	}
	return "zproxy-test-" + name + "-" + hex.EncodeToString(b)
}

// testOptions are Options for DynamoDB Local: dummy credentials (the SDK's
// default chain may find none on a test machine), short backoffs.
func testOptions(table, ep string) Options {
	return Options{
		Table:       table,
		Region:      "us-east-1",
		Endpoint:    ep,
		Credentials: credentials.NewStaticCredentialsProvider("zproxytest", "zproxytest", ""),
		MaxBackoff:  100 * time.Millisecond,
	}
}

func openTest(t testing.TB, opts Options) *Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := Open(ctx, opts)
	if err != nil {
		t.Fatalf("Open(%q): %v", opts.Table, err)
	}
	return s
}

// deleteTableOnCleanup drops a test's own table when it ends (DynamoDB
// Local keeps in-memory tables until it stops; a real endpoint would not).
func deleteTableOnCleanup(t testing.TB, s *Store) {
	t.Cleanup(func() {
		_, err := s.client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: &s.table})
		if err != nil {
			t.Logf("deleting table %s: %v", s.table, err)
		}
	})
}
