package session_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/kv"
	zdynamo "github.com/zproxy/zproxy/kv/dynamodb"
	zpebble "github.com/zproxy/zproxy/kv/pebble"
)

// TestDatabaseTemplate: CREATE DATABASE ... TEMPLATE of a user database
// copies its catalog and rows (more than one write batch of them), the
// copy is independent of its source afterwards, and the copy is refused
// (55006) while another session is in the source.
func TestDatabaseTemplate(t *testing.T) {
	testDatabaseTemplate(t, memStore(t))
}

// TestDatabaseTemplateDynamoDB is TestDatabaseTemplate over DynamoDB
// Local, where the source's partitions are found by a filtered scan.
func TestDatabaseTemplateDynamoDB(t *testing.T) {
	ep := os.Getenv("DYNAMODB_ENDPOINT")
	if ep == "" {
		t.Skip("needs DynamoDB Local (DYNAMODB_ENDPOINT)")
	}
	s, err := zdynamo.Open(context.Background(), zdynamo.Options{Table: fmt.Sprintf("dbtemplate_%d", os.Getpid()), Endpoint: ep, Region: "us-east-1",
		Credentials: credentials.NewStaticCredentialsProvider("test", "test", "")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	testDatabaseTemplate(t, s)
}

func testDatabaseTemplate(t *testing.T, store kv.Store) {
	eng := adminEngineOn(t, store, true)
	first, err := connectTo(t, eng, "")
	if err != nil {
		t.Fatal(err)
	}
	mustExec(t, first, "CREATE DATABASE tpl_src")
	src, err := connectTo(t, eng, "tpl_src")
	if err != nil {
		t.Fatal(err)
	}
	mustExec(t, src, "CREATE SCHEMA app")
	mustExec(t, src, "CREATE TABLE app.t (k int PRIMARY KEY, v text)")
	mustExec(t, src, "CREATE INDEX t_v ON app.t (v)")
	mustExec(t, src, "CREATE SEQUENCE app.s")
	mustExec(t, src, "CREATE FUNCTION app.twice(a int) RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT 2 * a'")
	mustExec(t, src, "INSERT INTO app.t SELECT g, 'v' || g FROM generate_series(1, 700) g")
	mustExec(t, src, "SELECT nextval('app.s'), nextval('app.s')")

	// Another session in the source: PostgreSQL's 55006.
	expectSQL(t, first, "CREATE DATABASE tpl_copy TEMPLATE tpl_src", pgerr.ObjectInUse, `source database "tpl_src" is being accessed by other users`)
	if got := strings.Join(mustExec(t, first, "SELECT count(*) FROM pg_database WHERE datname = 'tpl_copy'"), ";"); got != "0" {
		t.Errorf("a refused copy is listed: %q", got)
	}
	src.Close()
	expectSQL(t, first, "CREATE DATABASE tpl_copy TEMPLATE postgres", pgerr.FeatureNotSupported, "TEMPLATE")
	mustExec(t, first, "CREATE DATABASE tpl_copy TEMPLATE tpl_src IS_TEMPLATE false ALLOW_CONNECTIONS true")
	expectSQL(t, first, "CREATE DATABASE tpl_copy TEMPLATE tpl_src", pgerr.DuplicateDatabase, `database "tpl_copy" already exists`)

	cp, err := connectTo(t, eng, "tpl_copy")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ sql, want string }{
		{"SELECT count(*), sum(k), min(v), max(v) FROM app.t", "700|245350|v1|v99"},
		{"SELECT k FROM app.t WHERE v = 'v650'", "650"},
		{"SELECT app.twice(21)", "42"},
		// (A sequence's values are handed out in blocks: the copy goes
		// on after the source's block, as another proxy would.)
		{"SELECT nextval('app.s') > 2", "t"},
		{"SELECT current_database()", "tpl_copy"},
	} {
		if got := strings.Join(mustExec(t, cp, c.sql), ";"); got != c.want {
			t.Errorf("the copy: %s = %q, want %q", c.sql, got, c.want)
		}
	}
	// Independent afterwards: changes on either side stay there.
	mustExec(t, cp, "DELETE FROM app.t WHERE k > 10")
	mustExec(t, cp, "ALTER TABLE app.t ADD COLUMN w int")
	mustExec(t, cp, "CREATE TABLE only_copy (a int)")
	src, err = connectTo(t, eng, "tpl_src")
	if err != nil {
		t.Fatal(err)
	}
	mustExec(t, src, "UPDATE app.t SET v = 'changed' WHERE k = 1")
	for _, c := range []struct{ sql, want string }{
		{"SELECT count(*), max(v) FROM app.t", "700|v99"},
		{"SELECT v FROM app.t WHERE k = 1", "changed"},
		{"SELECT count(*) FROM information_schema.columns WHERE table_name = 't' AND column_name = 'w'", "0"},
		{"SELECT count(*) FROM pg_class WHERE relname = 'only_copy'", "0"},
		{"SELECT nextval('app.s')", "3"},
	} {
		if got := strings.Join(mustExec(t, src, c.sql), ";"); got != c.want {
			t.Errorf("the source after the copy changed: %s = %q, want %q", c.sql, got, c.want)
		}
	}
	if got := strings.Join(mustExec(t, cp, "SELECT count(*), min(v) FROM app.t"), ";"); got != "10|v1" {
		t.Errorf("the copy after the source changed: %q", got)
	}
	// Dropping the source leaves the copy whole.
	src.Close()
	mustExec(t, first, "DROP DATABASE tpl_src")
	if got := strings.Join(mustExec(t, cp, "SELECT count(*) FROM app.t"), ";"); got != "10" {
		t.Errorf("the copy after the source was dropped: %q", got)
	}
}

// gatedLister is a Pebble store whose PartitionsWithPrefix, the start of
// a database copy, waits for the test.
type gatedLister struct {
	*zpebble.Store
	started, release chan struct{}
}

func (g *gatedLister) PartitionsWithPrefix(ctx context.Context, prefix []byte) ([][]byte, error) {
	close(g.started)
	<-g.release
	return g.Store.PartitionsWithPrefix(ctx, prefix)
}

// TestDatabaseTemplateHoldsSessions: a session opening the source while
// it is copied waits until the copy is done, as PostgreSQL's lock on the
// source database makes it.
func TestDatabaseTemplateHoldsSessions(t *testing.T) {
	ctx := context.Background()
	store := &gatedLister{Store: memStore(t).(*zpebble.Store), started: make(chan struct{}), release: make(chan struct{})}
	eng := adminEngineOn(t, store, true)
	first, err := connectTo(t, eng, "")
	if err != nil {
		t.Fatal(err)
	}
	mustExec(t, first, "CREATE DATABASE held_src")
	created := make(chan error, 1)
	go func() {
		_, err := runSQL(ctx, first, "CREATE DATABASE held_copy TEMPLATE held_src")
		created <- err
	}()
	<-store.started
	opened := make(chan error, 1)
	go func() {
		_, err := connectTo(t, eng, "held_src")
		opened <- err
	}()
	select {
	case err := <-opened:
		t.Fatalf("a session opened the source during its copy (%v)", err)
	case <-time.After(200 * time.Millisecond):
	}
	close(store.release)
	if err := <-created; err != nil {
		t.Fatal(err)
	}
	if err := <-opened; err != nil {
		t.Fatal(err)
	}
}
