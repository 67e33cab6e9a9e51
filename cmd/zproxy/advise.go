package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/jackc/pgx/v5"

	"github.com/zproxy/zproxy/advisor"
	"github.com/zproxy/zproxy/parser"
)

// adviseCommand prints a running proxy's index advice, read over the wire:
// `zproxy advise [--url URL] [--file statements.sql]`. Without --file the
// advice is for the proxy's recorded workload (pg_stat_statements); with
// it, for the file's statements, which the proxy EXPLAINs (plans, never
// runs) in a session whose zproxy.advice_workload is "explained".
func adviseCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("zproxy advise", flag.ContinueOnError)
	fs.SetOutput(stderr)
	url := fs.String("url", "postgres://zproxy@"+defaultListen+"/postgres?sslmode=disable", "the proxy to ask (a PostgreSQL connection `URL`)")
	file := fs.String("file", "", "advise for the statements in this `file` (\"-\": standard input) instead of the recorded workload")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: zproxy advise [--url URL] [--file statements.sql]\n\nPrints the index advisor's recommendations (zproxy_index_advice) for a running proxy's\nworkload, or for a file of statements, with the statements each one helps.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "zproxy advise: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	conn, err := pgx.Connect(ctx, *url)
	if err != nil {
		fmt.Fprintf(stderr, "zproxy advise: %v\n", err)
		return 1
	}
	defer conn.Close(context.Background())
	queries := map[int64]string{}
	if *file != "" {
		if err := explainFile(ctx, conn, *file, queries, stderr); err != nil {
			fmt.Fprintf(stderr, "zproxy advise: %v\n", err)
			return 1
		}
	} else if err := statementTexts(ctx, conn, queries); err != nil {
		fmt.Fprintf(stderr, "zproxy advise: %v\n", err)
		return 1
	}
	recs, err := readAdvice(ctx, conn)
	if err != nil {
		fmt.Fprintf(stderr, "zproxy advise: %v\n", err)
		return 1
	}
	fmt.Fprint(stdout, advisor.Render(recs, queries))
	return 0
}

// explainFile has the proxy plan each statement of a file into this
// session's explained workload. A statement the proxy cannot plan is
// reported and skipped.
func explainFile(ctx context.Context, conn *pgx.Conn, path string, queries map[int64]string, stderr io.Writer) error {
	var text []byte
	var err error
	if path == "-" {
		text, err = io.ReadAll(os.Stdin)
	} else {
		text, err = os.ReadFile(path)
	}
	if err != nil {
		return err
	}
	stmts, err := parser.Parse(string(text))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if _, err := conn.Exec(ctx, "SET zproxy.advice_workload = 'explained'"); err != nil {
		return err
	}
	for _, st := range stmts {
		norm, id := parser.Normalize(st.Text)
		if _, err := conn.Exec(ctx, "EXPLAIN "+st.Text, pgx.QueryExecModeSimpleProtocol); err != nil {
			// The normal form names the statement without its constants,
			// as everything zproxy prints of statements does.
			fmt.Fprintf(stderr, "zproxy advise: skipped %q: %v\n", norm, err)
			continue
		}
		queries[id] = norm
	}
	return nil
}

// statementTexts reads the recorded statements' texts by query ID.
func statementTexts(ctx context.Context, conn *pgx.Conn, queries map[int64]string) error {
	rows, err := conn.Query(ctx, "SELECT queryid, query FROM pg_stat_statements")
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var q string
		if err := rows.Scan(&id, &q); err != nil {
			return err
		}
		queries[id] = q
	}
	return rows.Err()
}

// readAdvice reads zproxy_index_advice.
func readAdvice(ctx context.Context, conn *pgx.Conn) ([]advisor.Recommendation, error) {
	rows, err := conn.Query(ctx, `SELECT table_name::text, kind, recommendation, statements, calls, items_before, items_after,
		requests_before, requests_after, write_items_per_row, rows_written, reason FROM zproxy_index_advice`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []advisor.Recommendation
	for rows.Next() {
		var r advisor.Recommendation
		if err := rows.Scan(&r.Table, &r.Kind, &r.SQL, &r.Statements, &r.Calls, &r.ItemsBefore, &r.ItemsAfter,
			&r.RequestsBefore, &r.RequestsAfter, &r.WriteItems, &r.RowsWritten, &r.Reason); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
