package wire

import (
	"context"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// TestRegistry: the namespace rules SQL and the protocol share.
func TestRegistry(t *testing.T) {
	r := NewRegistry(context.Background())
	if err := r.Prepare("p", "PREPARE p AS SELECT 1", nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := r.Prepare("p", "PREPARE p AS SELECT 1", nil, nil); pgerr.CodeOf(err) != pgerr.DuplicatePreparedStatement {
		t.Errorf("second PREPARE p: %v", err)
	}
	r.stmts[""] = &prepared{name: ""}
	running := &portal{stmt: r.stmts[""], active: true}
	idle := &portal{stmt: r.stmts["p"]}
	r.portals[""], r.portals["idle"] = running, idle
	r.DeallocateAll()
	if _, err := r.Prepared("p"); pgerr.CodeOf(err) != pgerr.InvalidSQLStatementName {
		t.Errorf("p after DEALLOCATE ALL: %v", err)
	}
	if _, ok := r.stmts[""]; !ok {
		t.Error("DEALLOCATE ALL dropped the unnamed statement")
	}
	if _, ok := r.portals["idle"]; ok {
		t.Error("a portal of a deallocated statement survived")
	}
	// A transaction's end (or CLOSE ALL) closes every portal but the one
	// running the statement that asks.
	r.portals["other"] = &portal{stmt: r.stmts[""]}
	r.ClosePortals(nil)
	if _, ok := r.portals[""]; !ok || len(r.portals) != 1 {
		t.Errorf("after ClosePortals: %v", r.portals)
	}
	if _, err := r.Cursor("nosuch"); pgerr.CodeOf(err) != pgerr.InvalidCursorName {
		t.Errorf("Cursor(nosuch): %v", err)
	}
	if err := r.ClosePortal("nosuch"); pgerr.CodeOf(err) != pgerr.InvalidCursorName {
		t.Errorf("ClosePortal(nosuch): %v", err)
	}
}
