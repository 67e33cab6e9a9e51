package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/executor"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/kv/kvprefix"
)

// checkCommand verifies that tables and their indexes agree, reading the
// store directly: `zproxy check [flags] [table ...]` (every table when none
// is named). It prints one line per index and exits 1 if any disagrees.
// On the embedded store it needs the data directory to itself (stop the
// server first); on DynamoDB it can run beside serving proxies.
func checkCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, tables, err := loadConfig(args, os.LookupEnv, os.ReadFile)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(stdout, "usage: zproxy check [flags] [table ...]\n\nVerifies that every row has exactly its index entries and that no index holds others.\nFlags select the store as for serving (see zproxy --help).")
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "zproxy check: %v\n", err)
		return 2
	}
	store, err := openStore(ctx, cfg, nil)
	if err != nil {
		fmt.Fprintf(stderr, "zproxy check: %v\n", err)
		return 1
	}
	defer store.Close()
	cat, dbStore, err := openDatabase(ctx, store, cfg.Database)
	if err != nil {
		fmt.Fprintf(stderr, "zproxy check: %v\n", err)
		return 1
	}
	snap, err := cat.Snapshot(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "zproxy check: %v\n", err)
		return 1
	}
	var targets []*catalog.Table
	if len(tables) == 0 {
		targets = snap.Tables()
	}
	for _, name := range tables {
		t, err := snap.Table(name)
		if err != nil {
			fmt.Fprintf(stderr, "zproxy check: %v\n", err)
			return 1
		}
		targets = append(targets, t)
	}
	ex := executor.New(dbStore)
	w := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "TABLE\tINDEX\tROWS\tENTRIES\tMISSING\tORPHANED\tOK")
	bad := false
	for _, t := range targets {
		results, err := ex.Check(ctx, t)
		if err != nil {
			fmt.Fprintf(stderr, "zproxy check: %s: %v\n", t.Name, err)
			return 1
		}
		for _, r := range results {
			ok := r.Missing == 0 && r.Orphaned == 0 && r.Entries == r.Rows
			bad = bad || !ok
			fmt.Fprintf(w, "%s\t%s\t%d\t%d\t%d\t%d\t%v\n", r.Table, r.Index, r.Rows, r.Entries, r.Missing, r.Orphaned, ok)
		}
	}
	w.Flush()
	if bad {
		return 1
	}
	return 0
}

// openDatabase opens the catalog of the store's database named name
// (--database; the first database's name unless ALTER DATABASE renamed
// it) and its view of the store.
func openDatabase(ctx context.Context, store kv.Store, name string) (*catalog.Catalog, kv.Store, error) {
	first, err := catalog.Open(ctx, store)
	if err != nil {
		return nil, nil, err
	}
	snap, err := first.Snapshot(ctx)
	if err != nil {
		return nil, nil, err
	}
	// --database both names the first database and chooses the one to
	// check: another database of that name is the one meant.
	var d *catalog.Database
	for _, o := range snap.Databases() {
		if o.ID != catalog.FirstDatabaseID && o.Name == name {
			d = o
		}
	}
	if d == nil {
		if f := snap.DatabaseByID(catalog.FirstDatabaseID); f != nil && f.Name != name {
			return nil, nil, fmt.Errorf("database %q does not exist", name)
		}
		return first, store, nil
	}
	view := kvprefix.New(store, kvprefix.Prefix(d.ID))
	cat, err := catalog.OpenIn(ctx, view, kvprefix.Shared(catalog.CatalogPartition), nil)
	return cat, view, err
}
