package catalog_test

import (
	"context"
	"testing"

	"github.com/zproxy/zproxy/catalog"
)

// TestIsMemberOf stores memberships and reads them back through another
// catalog: membership is transitive, predefined roles' own memberships
// (pg_monitor) count, a superuser is a member of every role, and the
// admin option is not inherited as membership is.
func TestIsMemberOf(t *testing.T) {
	ctx := context.Background()
	cat, reopen := openCatalog(t)
	if _, err := cat.Update(ctx, func(s *catalog.Snapshot, v uint64) (catalog.Change, error) {
		a := &catalog.Role{Name: "a", MemberOf: map[string]bool{"b": true}}
		b := &catalog.Role{Name: "b", MemberOf: map[string]bool{catalog.RoleMonitor: false}}
		su := &catalog.Role{Name: "su", Superuser: true}
		return catalog.Change{PutRoles: []*catalog.Role{a, b, su, {Name: "c"}}}, nil
	}); err != nil {
		t.Fatal(err)
	}
	snap, err := reopen().Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		role, group string
		want        bool
	}{
		{"a", "a", true}, {"a", "b", true}, {"a", catalog.RoleMonitor, true}, {"a", catalog.RoleReadAllStats, true},
		{"a", catalog.RoleReadAllData, false}, {"b", "a", false}, {"c", "b", false}, {"su", "a", true},
		{catalog.RoleMonitor, catalog.RoleStatScanTables, true}, {catalog.RoleReadAllStats, catalog.RoleMonitor, false},
	} {
		if got := snap.IsMemberOf(c.role, c.group); got != c.want {
			t.Errorf("IsMemberOf(%s, %s) = %v", c.role, c.group, got)
		}
	}
	if !snap.HasAdminOf("a", "b") || snap.HasAdminOf("a", catalog.RoleMonitor) || snap.HasAdminOf("c", "b") || !snap.HasAdminOf("su", "b") {
		t.Error("HasAdminOf")
	}
	if !snap.RoleExists(catalog.RoleWriteAllData) || snap.RoleExists(catalog.PublicRole) || snap.RoleExists("nosuch") {
		t.Error("RoleExists")
	}
	if got := len(snap.Memberships()); got != 5 {
		t.Errorf("%d memberships, want 5: %v", got, snap.Memberships())
	}
	if dropped := snap.DropMembershipsIn([]string{"b"}); len(dropped) != 1 || dropped[0].Name != "a" || len(dropped[0].MemberOf) != 0 || len(snap.Role("a").MemberOf) != 1 {
		t.Errorf("DropMembershipsIn(b) = %v", dropped)
	}
}
