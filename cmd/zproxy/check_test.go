package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
	zpebble "github.com/zproxy/zproxy/kv/pebble"
	"github.com/zproxy/zproxy/session"
	"github.com/zproxy/zproxy/wire"
)

func execSQL(t *testing.T, sess wire.Session, sql string) {
	t.Helper()
	ctx := context.Background()
	stmts, err := sess.Parse(ctx, sql, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range stmts {
		res, err := st.Execute(ctx, nil)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		res.Close()
	}
}

// openCheckStore opens a Pebble store in dir and an engine over it.
func openCheckStore(t *testing.T, dir string) (*zpebble.Store, *session.Engine) {
	t.Helper()
	store, err := zpebble.Open(dir, zpebble.Options{})
	if err != nil {
		t.Fatal(err)
	}
	eng, err := session.New(context.Background(), session.Config{Store: store, AllowFullScan: true})
	if err != nil {
		t.Fatal(err)
	}
	return store, eng
}

// TestCheckCommand builds a table with indexes, then checks it with the
// subcommand before and after removing one index entry behind its back.
func TestCheckCommand(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	store, eng := openCheckStore(t, dir)
	sess, err := eng.NewSession(ctx, wire.SessionParams{Notice: func(*pgerr.Error) {}})
	if err != nil {
		t.Fatal(err)
	}
	execSQL(t, sess, `CREATE TABLE t (id INT PRIMARY KEY, v TEXT) WITH (shards = 2);
		CREATE INDEX t_v ON t (v);
		INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')`)
	snap, err := eng.Catalog().Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tbl, _ := snap.Table("t")
	store.Close()

	var out, errOut bytes.Buffer
	if code := checkCommand(ctx, []string{"--data-dir", dir}, &out, &errOut); code != 0 {
		t.Fatalf("check of a consistent store: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	if !strings.Contains(out.String(), "t_v") || strings.Contains(out.String(), "false") {
		t.Fatalf("check output:\n%s", out.String())
	}

	// Remove row 2's index entry directly in the store.
	store, err = zpebble.Open(dir, zpebble.Options{})
	if err != nil {
		t.Fatal(err)
	}
	row := []sqltypes.Value{sqltypes.NewInt(2), sqltypes.NewText("b")}
	key := tbl.EntryKey(tbl.Index("t_v"), row)
	if err := store.Write(ctx, kv.Batch{Ops: []kv.Op{{Kind: kv.OpDelete, Key: key}}, Atomic: true}); err != nil {
		t.Fatal(err)
	}
	store.Close()
	out.Reset()
	if code := checkCommand(ctx, []string{"--data-dir", dir, "t"}, &out, &errOut); code != 1 {
		t.Fatalf("check of a store with a missing entry: exit %d, want 1\n%s", code, out.String())
	}
	if !strings.Contains(out.String(), "false") {
		t.Fatalf("check output does not report the missing entry:\n%s", out.String())
	}
}

// TestCheckCommandDatabase checks the tables of the database --database
// names.
func TestCheckCommandDatabase(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	store, eng := openCheckStore(t, dir)
	first, err := eng.NewSession(ctx, wire.SessionParams{Notice: func(*pgerr.Error) {}})
	if err != nil {
		t.Fatal(err)
	}
	execSQL(t, first, `CREATE TABLE t (id INT PRIMARY KEY, v TEXT); CREATE INDEX t_v ON t (v); CREATE DATABASE other`)
	sess, err := eng.NewSession(ctx, wire.SessionParams{Database: "other", Notice: func(*pgerr.Error) {}})
	if err != nil {
		t.Fatal(err)
	}
	execSQL(t, sess, `CREATE TABLE u (id INT PRIMARY KEY, v TEXT); CREATE INDEX u_v ON u (v); INSERT INTO u VALUES (1, 'a')`)
	sess.Close()
	first.Close()
	eng.Close()
	store.Close()
	for _, c := range []struct {
		db, has, hasNot string
	}{{"other", "u_v", "t_v"}, {"postgres", "t_v", "u_v"}} {
		var out, errOut bytes.Buffer
		if code := checkCommand(ctx, []string{"--data-dir", dir, "--database", c.db}, &out, &errOut); code != 0 {
			t.Fatalf("check of %s: exit %d\n%s%s", c.db, code, out.String(), errOut.String())
		}
		if !strings.Contains(out.String(), c.has) || strings.Contains(out.String(), c.hasNot) {
			t.Errorf("check of %s:\n%s", c.db, out.String())
		}
	}
}
