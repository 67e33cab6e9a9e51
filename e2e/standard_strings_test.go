package e2e

import (
	"context"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestStandardConformingStringsOff: a session that turns
// standard_conforming_strings off reads backslashes in ordinary literals
// as escapes, hears a 22P06 WARNING for each such literal's first escape
// (at the literal, with PostgreSQL's message and hint) unless
// escape_string_warning is off, and is told of the change by
// ParameterStatus, as drivers (pgx's simple protocol) depend on.
func TestStandardConformingStringsOff(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	ctx := testCtx(t)
	var notices []string
	conn := connectNoticing(ctx, t, tg, 0, func(n *pgconn.Notice) {
		notices = append(notices, fmt.Sprintf("%s %s %s @%d %s", n.Severity, n.Code, n.Message, n.Position, n.Hint))
	})

	if _, err := conn.Exec(ctx, "SET standard_conforming_strings = off"); err != nil {
		t.Fatal(err)
	}
	if got := conn.PgConn().ParameterStatus("standard_conforming_strings"); got != "off" {
		t.Fatalf("ParameterStatus standard_conforming_strings = %q", got)
	}
	var a, b, c string
	if err := conn.QueryRow(ctx, `SELECT 'a\\b', 'it\'s', 'plain'`, pgx.QueryExecModeExec).Scan(&a, &b, &c); err != nil {
		t.Fatal(err)
	}
	if a != `a\b` || b != "it's" || c != "plain" {
		t.Errorf("got %q %q %q", a, b, c)
	}
	want := []string{
		`WARNING 22P06 nonstandard use of \\ in a string literal @8 Use the escape string syntax for backslashes, e.g., E'\\'.`,
		`WARNING 22P06 nonstandard use of \' in a string literal @16 Use '' to write quotes in strings, or use the escape string syntax (E'...').`,
	}
	if fmt.Sprint(notices) != fmt.Sprint(want) {
		t.Errorf("notices:\n%q\nwant\n%q", notices, want)
	}
	notices = nil
	if _, err := conn.Exec(ctx, "SET escape_string_warning = off"); err != nil {
		t.Fatal(err)
	}
	if err := conn.QueryRow(ctx, `SELECT 'x\ty'`, pgx.QueryExecModeExec).Scan(&a); err != nil {
		t.Fatal(err)
	}
	if a != "x\ty" || len(notices) != 0 {
		t.Errorf("with escape_string_warning off: %q, notices %q", a, notices)
	}
	if _, err := conn.Exec(ctx, "RESET standard_conforming_strings"); err != nil {
		t.Fatal(err)
	}
	if got := conn.PgConn().ParameterStatus("standard_conforming_strings"); got != "on" {
		t.Fatalf("after RESET: ParameterStatus standard_conforming_strings = %q", got)
	}

	// Set at startup, the setting is reported with the startup's
	// ParameterStatus messages.
	off, err := pgconn.Connect(ctx, tg.connString+" options='-c standard_conforming_strings=off'")
	if err != nil {
		t.Fatal(err)
	}
	defer off.Close(context.Background())
	if got := off.ParameterStatus("standard_conforming_strings"); got != "off" {
		t.Fatalf("set at startup: ParameterStatus standard_conforming_strings = %q", got)
	}
}
