package session

import (
	"context"
	"sort"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/auth"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/planner"
	"github.com/zproxy/zproxy/wire"
)

// LookupRole implements wire.Engine: the role as the store has it now,
// not as this proxy's cached schema had it a moment ago (another proxy may
// have just created it or changed its password).
func (e *Engine) LookupRole(ctx context.Context, name string) (wire.Role, error) {
	snap, err := e.catalog.Latest(ctx)
	if err != nil {
		return wire.Role{}, storeErr(err)
	}
	r := snap.Role(name)
	if r == nil || name == catalog.PublicRole {
		return wire.Role{Name: name}, nil
	}
	return wire.Role{Name: r.Name, Exists: true, Login: r.Login, Superuser: r.Superuser, Verifier: r.Verifier}, nil
}

// BootstrapUsers creates the roles of --users that do not exist yet, as
// superusers that may log in, storing a SCRAM verifier of each password.
// A role that exists keeps its password and attributes (ALTER ROLE changes
// them), so proxies started with the same list over one store agree. It
// returns the names it created.
func (e *Engine) BootstrapUsers(ctx context.Context, users map[string]string) ([]string, error) {
	verifiers := make(map[string]string, len(users))
	for name, password := range users {
		if err := planner.CheckRoleName(name); err != nil {
			return nil, err
		}
		v, err := auth.NewVerifier(password)
		if err != nil {
			return nil, err
		}
		verifiers[name] = v.String()
	}
	var created []string
	_, err := e.catalog.Update(ctx, func(s *catalog.Snapshot, _ uint64) (catalog.Change, error) {
		created = created[:0]
		var ch catalog.Change
		for name, v := range verifiers {
			if s.Role(name) != nil {
				continue
			}
			created = append(created, name)
			ch.PutRoles = append(ch.PutRoles, &catalog.Role{Name: name, Login: true, Superuser: true, Verifier: v})
		}
		if len(ch.PutRoles) == 0 {
			return ch, errNothingToDo
		}
		return ch, nil
	})
	if err == errNothingToDo {
		err = nil
	}
	sort.Strings(created)
	return created, storeErr(err)
}

// errNothingToDo aborts a catalog change that turns out to change nothing.
var errNothingToDo = pgerr.New(pgerr.SuccessfulCompletion, "nothing to change")

// isSuperuser reports whether the session's user is a superuser now: its
// role's attribute when the role exists; otherwise (see
// wire.SessionParams.Authenticated) a superuser unless it authenticated
// as a role that has since been dropped.
func (s *Session) isSuperuser(snap *catalog.Snapshot) bool {
	if r := snap.Role(s.params.User); r != nil && s.params.User != catalog.PublicRole {
		return r.Superuser
	}
	return !s.params.Authenticated
}

// tablePrivilege is one privilege a statement needs on one table.
type tablePrivilege struct {
	table *catalog.Table
	priv  catalog.Privilege
}

// checkPrivileges refuses a statement the session's user may not run
// (42501): the table privileges it needs, and for DDL, being the table's
// owner (or a superuser, which creating a table takes: in PostgreSQL 15
// only the owner of schema public may create in it).
func (s *Session) checkPrivileges(ctx context.Context, bound planner.Statement) error {
	return s.checkNeeds(ctx, bound, requiredPrivileges(bound))
}

// checkNeeds is checkPrivileges with bound's required privileges known.
func (s *Session) checkNeeds(ctx context.Context, bound planner.Statement, needs []tablePrivilege) error {
	if len(needs) == 0 && !isDDL(bound) {
		return nil
	}
	snap, err := s.engine.catalog.Snapshot(ctx)
	if err != nil {
		return storeErr(err)
	}
	if s.isSuperuser(snap) {
		return nil
	}
	if _, creates := bound.(*planner.CreateTable); creates {
		return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for schema public")
	}
	for _, o := range requiredOwnership(snap, bound) {
		if o.table.Owner != s.params.User {
			return pgerr.New(pgerr.InsufficientPrivilege, "must be owner of %s", o.what)
		}
	}
	return s.requirePrivileges(snap, needs)
}

// requirePrivileges checks a list of (table, privilege) pairs.
func (s *Session) requirePrivileges(snap *catalog.Snapshot, needs []tablePrivilege) error {
	for _, n := range needs {
		if !snap.Allowed(s.params.User, n.table, n.priv) {
			return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for table %s", n.table.Name)
		}
	}
	return nil
}

// privileges returns what st's binding bound requires, walked once per
// binding: a prepared statement executed again and again keeps its
// binding (and so its list) while the schema stays the same.
func (st *statement) privileges(bound planner.Statement) []tablePrivilege {
	if st.privFor != bound {
		st.privNeeds, st.privFor = requiredPrivileges(bound), bound
	}
	return st.privNeeds
}

// requiredPrivileges lists the table privileges a bound statement needs,
// as PostgreSQL asks for them: SELECT to read a table, including the rows
// an UPDATE or DELETE picks with WHERE and the values its SET reads (any
// SET value that is not a constant is taken to read the row) and the
// conflicting row of INSERT ... ON CONFLICT DO UPDATE, whose UPDATE it
// needs too.
func requiredPrivileges(b planner.Statement) []tablePrivilege {
	out := statementPrivileges(b)
	for _, w := range planner.WritesOf(b) {
		out = append(out, requiredPrivileges(w.Write)...) // data-modifying WITH queries
	}
	return out
}

// statementPrivileges lists the privileges of the statement itself.
func statementPrivileges(b planner.Statement) []tablePrivilege {
	reads := func(r planner.Rel, except *catalog.Table) []tablePrivilege {
		var out []tablePrivilege
		for _, t := range planner.ScannedTables(r) {
			if t != except {
				out = append(out, tablePrivilege{t, catalog.PrivSelect})
			}
		}
		return out
	}
	switch x := b.(type) {
	case *planner.Query:
		return reads(x.Plan, nil)
	case *planner.Insert:
		p := catalog.PrivInsert
		if x.OnConflict != nil && !x.OnConflict.DoNothing {
			p |= catalog.PrivUpdate | catalog.PrivSelect
		}
		if x.Returning != nil {
			p |= catalog.PrivSelect
		}
		return append([]tablePrivilege{{x.Table, p}}, reads(x.Source, x.Table)...)
	case *planner.Update:
		p := catalog.PrivUpdate
		if hasFilter(x.Source) || !allConstant(x.Set) || x.Returning != nil {
			p |= catalog.PrivSelect
		}
		return append([]tablePrivilege{{x.Table, p}}, reads(x.Source, x.Table)...)
	case *planner.Delete:
		p := catalog.PrivDelete
		if hasFilter(x.Source) || x.Returning != nil {
			p |= catalog.PrivSelect
		}
		return append([]tablePrivilege{{x.Table, p}}, reads(x.Source, x.Table)...)
	case *planner.Explain:
		return requiredPrivileges(x.Stmt)
	case *planner.Truncate:
		var out []tablePrivilege
		for _, t := range x.Tables {
			out = append(out, tablePrivilege{t, catalog.PrivTruncate})
		}
		return out
	case *planner.CheckTable:
		var out []tablePrivilege
		for _, t := range x.Tables {
			out = append(out, tablePrivilege{t, catalog.PrivSelect})
		}
		return out
	}
	return nil
}

// hasFilter reports whether a write's row source has a WHERE clause (the
// statement then reads the table, which needs SELECT).
func hasFilter(r planner.Rel) bool {
	found := false
	planner.WalkRel(r, func(x planner.Rel) {
		if _, ok := x.(*planner.Filter); ok {
			found = true
		}
	})
	return found
}

// isDDL reports whether a statement changes the schema.
func isDDL(b planner.Statement) bool {
	switch b.(type) {
	case *planner.CreateTable, *planner.DropTable, *planner.CreateIndex, *planner.DropIndex,
		*planner.CreateSequence, *planner.AlterSequence, *planner.DropSequence, *planner.AlterTable,
		*planner.AddConstraint, *planner.DropConstraint, *planner.ValidateConstraint, *planner.RenameConstraint:
		return true
	}
	return false
}

func allConstant(set map[int]planner.Expr) bool {
	for _, e := range set {
		if _, ok := e.(*planner.Const); !ok {
			return false
		}
	}
	return true
}

// ownership is a table a DDL statement must own; what names the object in
// the error ("table t", "index i").
type ownership struct {
	table *catalog.Table
	what  string
}

// requiredOwnership lists the tables a DDL statement changes, which only
// their owner may change, as snap has them. Names that do not exist are
// left to the statement to report.
func requiredOwnership(snap *catalog.Snapshot, b planner.Statement) []ownership {
	var out []ownership
	switch x := b.(type) {
	case *planner.DropTable:
		for _, name := range x.Names {
			if t, err := snap.Table(name); err == nil {
				out = append(out, ownership{t, "table " + t.Name})
			}
		}
	case *planner.CreateIndex:
		if t, err := snap.Table(x.Table); err == nil {
			out = append(out, ownership{t, "table " + t.Name})
		}
	case *planner.AlterTable:
		if t, err := snap.Table(x.Table); err == nil {
			out = append(out, ownership{t, "table " + t.Name})
		} else if t, _ := snap.FindIndex(x.Table); t != nil {
			out = append(out, ownership{t, "index " + x.Table})
		}
	case *planner.DropIndex:
		if t, _ := snap.FindIndex(x.Name); t != nil {
			out = append(out, ownership{t, "index " + x.Name})
		}
	case *planner.AddConstraint, *planner.DropConstraint, *planner.ValidateConstraint, *planner.RenameConstraint:
		if t, err := snap.Table(constraintTable(x)); err == nil {
			out = append(out, ownership{t, "table " + t.Name})
		}
	}
	return out
}

// constraintTable names the table an ALTER TABLE constraint change alters.
func constraintTable(b planner.Statement) string {
	switch x := b.(type) {
	case *planner.AddConstraint:
		return x.Table
	case *planner.DropConstraint:
		return x.Table
	case *planner.ValidateConstraint:
		return x.Table
	case *planner.RenameConstraint:
		return x.Table
	}
	return ""
}
