package session

import (
	"context"
	"errors"
	"sort"
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/auth"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
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
	if name == pgcatalog.BootstrapRole && r == nil {
		// The bootstrap superuser (OID 10, owner of the system objects)
		// exists until a role of its name is stored (--users, CREATE
		// ROLE), as initdb's: it may log in without a password under
		// trust, and has none to prove under a password method.
		return wire.Role{Name: name, Exists: true, Login: true, Superuser: true}, nil
	}
	if r == nil || name == catalog.PublicRole {
		return wire.Role{Name: name}, nil
	}
	return wire.Role{Name: r.Name, Exists: true, Login: r.Login, Superuser: r.Superuser, Verifier: r.Verifier, Groups: snap.GroupsOf(r.Name)}, nil
}

// BootstrapUsers creates the roles of --users that do not exist yet, as
// superusers that may log in, storing a SCRAM verifier of each password.
// A role that exists keeps its password and attributes (ALTER ROLE changes
// them), so proxies started with the same list over one store agree. It
// returns the names it created.
func (e *Engine) BootstrapUsers(ctx context.Context, users map[string]string) ([]string, error) {
	verifiers := make(map[string]string, len(users))
	for name, password := range users {
		if err := ir.CheckRoleName(name); err != nil {
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

// isSuperuser reports whether the session's current user (setrole.go) is
// a superuser now: its role's attribute when the role exists; otherwise
// (see wire.SessionParams.Authenticated) a superuser only when it is the
// user of a session zproxy opened for itself.
// computedWriteDenied is err, unless it is a write to a relation zproxy
// computes (planner.ComputedWriteError) by a role that is no superuser:
// then PostgreSQL's "permission denied", which its privilege check
// reports before anything else.
func (s *Session) computedWriteDenied(snap *catalog.Snapshot, err error) error {
	var cw *planner.ComputedWriteError
	if !errors.As(err, &cw) || s.isSuperuser(snap) {
		return err
	}
	return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for table %s", cw.Relation)
}

func (s *Session) isSuperuser(snap *catalog.Snapshot) bool {
	return s.userIsSuperuser(snap, s.currentUser())
}

// roleIsSuperuser: a stored role's attribute; the bootstrap superuser
// while no role of its name is stored; otherwise a superuser only for a
// session zproxy opened for itself (not authenticated as a role).
func roleIsSuperuser(snap *catalog.Snapshot, user string, authenticated bool) bool {
	if r := snap.Role(user); r != nil && user != catalog.PublicRole {
		return r.Superuser
	}
	return user == pgcatalog.BootstrapRole || !authenticated
}

// tablePrivilege is one privilege a statement needs on a whole table
// (TRUNCATE, CHECK TABLE), beside the relation permissions its binding
// records (ir.PermissionsOf).
type tablePrivilege struct {
	table *catalog.Table
	priv  catalog.Privilege
}

// checkPrivileges refuses a statement the session's user may not run
// (42501): the privileges on every relation it names wherever it names it
// (ir.PermissionsOf: subqueries, RETURNING, SET, ON CONFLICT, WITH,
// and the relations inside views, checked as the view's owner), the
// table-level privileges of TRUNCATE, creating in schema public, and for
// DDL being the owner of what it changes.
func (s *Session) checkPrivileges(ctx context.Context, bound ir.Statement) error {
	return s.checkPrivilegesAs(ctx, bound, s.currentUser())
}

// checkPrivilegesAs is checkPrivileges for user: the current user, or
// inside a SECURITY DEFINER routine its owner.
func (s *Session) checkPrivilegesAs(ctx context.Context, bound ir.Statement, user string) error {
	perms := ir.PermissionsOf(bound)
	needs := statementPrivileges(bound)
	desc := bound.Describe()
	routines := ir.RoutinesOf(bound)
	colTypes := newColumnTypes(bound)
	if len(perms) == 0 && len(needs) == 0 && desc.CreatesIn == "" && len(desc.Owns) == 0 && len(routines) == 0 && len(colTypes) == 0 {
		return nil
	}
	snap, err := s.snapshot(ctx)
	if err != nil {
		return storeErr(err)
	}
	super := s.userIsSuperuser(snap, user)
	if err := checkExecute(snap, user, super, routines); err != nil {
		return err
	}
	if restricted, _ := restrictedKinds(s.varValue("restrict_nonsystem_relation_kind")); restricted["view"] {
		for _, p := range perms {
			if p.View != nil {
				// Every view zproxy stores is a user's; pg_dump sets this so
				// that no view's code runs while it dumps.
				return pgerr.New(pgerr.ObjectNotInPrerequisiteState, "access to non-system view \"%s\" is restricted", p.View.Name)
			}
		}
	}
	for _, p := range perms {
		role := user
		if p.CheckAs != "" {
			role = p.CheckAs
		}
		if role == user && super {
			continue
		}
		// A relation of a user schema needs USAGE on the schema, as
		// PostgreSQL checks when it looks the name up (so not for the
		// relations a view reads, found when the view was created).
		if sc, _ := catalog.SplitName(p.Name()); p.CheckAs == "" && sc != catalog.PublicSchema && !p.Computed() && snap.SchemaPrivileges(role, sc)&catalog.PrivUsage == 0 {
			return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for schema %s", sc)
		}
		if err := checkRelPermission(snap, role, p); err != nil {
			return err
		}
	}
	if super {
		return nil
	}
	checkOwner := func() error {
		for _, o := range ownersOf(snap, desc.Owns) {
			if o.owner != user && !snap.IsMemberOf(user, o.owner) { // pg_class_ownercheck: has_privs_of_role
				return pgerr.New(pgerr.InsufficientPrivilege, "must be owner of %s", o.what)
			}
		}
		return nil
	}
	// ALTER TABLE ... SET SCHEMA looks the table up, checking its owner,
	// before the new schema (AlterTableNamespace); other statements look
	// the schema up first.
	_, ownerFirst := bound.(*ir.AlterTable)
	if ownerFirst {
		if err := checkOwner(); err != nil {
			return err
		}
	}
	if desc.CreatesIn != "" && snap.SchemaPrivileges(user, desc.CreatesIn)&catalog.PrivCreate == 0 {
		return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for schema %s", desc.CreatesIn)
	}
	if rc, ok := bound.(*ir.RoutineChange); ok && rc.Action == parser.RoutineCreate && rc.AggDef == nil && rc.Operator == nil && rc.Cast == nil &&
		!s.holdsLanguageUsage(snap, rc.Options.Language) {
		return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for language %s", rc.Options.Language)
	}
	if !ownerFirst {
		if err := checkOwner(); err != nil {
			return err
		}
	}
	if err := checkTypeUsage(snap, user, colTypes); err != nil {
		return err
	}
	for _, n := range needs {
		if !snap.Allowed(user, n.table, n.priv) {
			_, name := catalog.SplitName(n.table.Name) // as PostgreSQL, unqualified
			return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for table %s", name)
		}
	}
	return nil
}

// checkRelPermission is PostgreSQL's ExecCheckOneRelPerms: role needs
// p.Required on the relation, where SELECT, INSERT and UPDATE missing at
// the relation level may be held on every column the statement reads,
// inserts or updates (on any one column when it names none).
func checkRelPermission(snap *catalog.Snapshot, role string, p *ir.RelPermission) error {
	kind := p.Kind()
	var have catalog.Privilege
	columnPrivileges := func(attr string) catalog.Privilege { return snap.ColumnPrivileges(role, p.ID(), attr) }
	anyColumn := func(priv catalog.Privilege) bool { return snap.AnyColumnPrivilege(role, p.ID(), priv) }
	if p.Computed() {
		// A relation zproxy computes: initdb's grants on it, which no
		// GRANT changes.
		sc, name := catalog.SplitName(p.Name())
		have = pgcatalog.SystemPrivileges(snap, role, sc, name, "")
		columnPrivileges = func(attr string) catalog.Privilege {
			return pgcatalog.SystemPrivileges(snap, role, sc, name, attr)
		}
		anyColumn = func(priv catalog.Privilege) bool {
			for _, c := range p.Table.Columns {
				if columnPrivileges(c.Name)&priv != 0 {
					return true
				}
			}
			return false
		}
	} else {
		have = snap.ObjectPrivileges(role, kind, p.ID(), p.Owner())
	}
	missing := p.Required &^ have
	if missing == 0 {
		return nil
	}
	noun := kind.Noun()
	sc, name := catalog.SplitName(p.Name()) // as PostgreSQL, unqualified
	switch {
	case p.Computed():
		if r := pgcatalog.Find(sc, name); r != nil && !r.IsTable() {
			noun = "view" // pg_shadow, information_schema's views
		}
	case p.View == nil && p.Table.IsMatview():
		noun = p.Table.KindName()
	}
	denied := pgerr.New(pgerr.InsufficientPrivilege, "permission denied for %s %s", noun, name)
	if missing&^(catalog.PrivSelect|catalog.PrivInsert|catalog.PrivUpdate) != 0 {
		return denied
	}
	for _, c := range []struct {
		priv catalog.Privilege
		cols ir.ColumnSet
	}{{catalog.PrivSelect, p.Selected}, {catalog.PrivInsert, p.Inserted}, {catalog.PrivUpdate, p.Updated}} {
		if missing&c.priv == 0 {
			continue
		}
		if c.cols.Empty() {
			if !anyColumn(c.priv) {
				return denied
			}
			continue
		}
		ok := true
		c.cols.Each(func(i int) {
			ok = ok && columnPrivileges(p.ColumnAttr(i))&c.priv != 0
		})
		if !ok {
			return denied
		}
	}
	return nil
}

// statementPrivileges lists the table-level privileges of the statements
// that name tables without reading their rows through a plan.
func statementPrivileges(b ir.Statement) []tablePrivilege {
	var out []tablePrivilege
	switch x := b.(type) {
	case *ir.Explain:
		return statementPrivileges(x.Stmt)
	case *ir.Truncate:
		for _, t := range x.Tables {
			out = append(out, tablePrivilege{t, catalog.PrivTruncate})
		}
	case *ir.CheckTable:
		for _, t := range x.Tables {
			out = append(out, tablePrivilege{t, catalog.PrivSelect})
		}
	}
	return out
}

// ownership is an object a DDL statement changes, which only its owner
// may change: what names it in the error ("table t", "index i").
type ownership struct {
	owner string
	what  string
}

// redactValues renders the row values an error's DETAIL shows (a failing
// row, a duplicate key) in the session's output settings and with only
// what the session's user may see, as PostgreSQL does: a column it may
// SELECT, or, in a failing row, one the statement itself inserted or
// updated.
func (s *Session) redactValues(ctx context.Context, bound ir.Statement, err error) {
	if err == nil {
		return
	}
	style := s.Style()
	style.Location = s.location()
	snap, serr := s.snapshot(ctx)
	if serr != nil || s.isSuperuser(snap) {
		pgerr.RenderValues(err, nil, style)
		return
	}
	user := s.currentUser()
	written := map[uint64]*ir.RelPermission{}
	for _, p := range ir.PermissionsOf(bound) {
		if p.Table != nil && p.CheckAs == "" {
			written[p.Table.ID] = p
		}
	}
	pgerr.RenderValues(err, func(table uint64, col int) pgerr.Visibility {
		t := snap.TableByID(table)
		if t == nil {
			return pgerr.Hidden
		}
		if snap.Allowed(user, t, catalog.PrivSelect) ||
			snap.ColumnPrivileges(user, t.ID, t.Columns[col].AttrName())&catalog.PrivSelect != 0 {
			return pgerr.Readable
		}
		if p := written[table]; p != nil && (p.Inserted.Has(col) || p.Updated.Has(col)) {
			return pgerr.Written
		}
		return pgerr.Hidden
	}, style)
}

// ownersOf resolves the objects a statement may be run on only by their
// owner (ir.Description.Owns) to their owners; an object that does not
// exist is left to the statement's own error.
func ownersOf(snap *catalog.Snapshot, refs []ir.ObjectRef) []ownership {
	var out []ownership
	for _, r := range refs {
		if r.Owner != "" {
			out = append(out, ownership{r.Owner, objectKindName(r.Kind) + " " + bareName(r.Name)})
			continue
		}
		switch r.Kind {
		case ir.ObjectTable:
			if t, err := snap.Table(r.Name); err == nil {
				out = append(out, ownership{t.Owner, t.KindName() + " " + bareName(t.Name)})
			}
		case ir.ObjectView:
			if v, ok := snap.StoredView(r.Name); ok {
				out = append(out, ownership{v.Owner, "view " + bareName(v.Name)})
			}
		case ir.ObjectSequence:
			if q, ok := snap.Sequence(r.Name); ok {
				out = append(out, ownership{q.Owner, "sequence " + bareName(q.Name)})
			}
		case ir.ObjectType:
			if u, ok := snap.UserType(r.Name); ok {
				out = append(out, ownership{u.Owner, "type " + bareName(u.Name)})
			}
		case ir.ObjectIndex:
			if t, _ := snap.FindIndex(r.Name); t != nil {
				out = append(out, ownership{t.Owner, "index " + bareName(r.Name)})
			}
		case ir.ObjectRelation:
			switch t, ix := snap.FindIndex(r.Name); {
			case snap.HasTable(r.Name):
				tb, _ := snap.Table(r.Name)
				out = append(out, ownership{tb.Owner, tb.KindName() + " " + bareName(tb.Name)})
			case t != nil && ix != nil:
				out = append(out, ownership{t.Owner, "index " + bareName(r.Name)})
			}
		}
	}
	return out
}

// bareName is an object's name without its schema, as PostgreSQL's
// privilege errors print it.
func bareName(key string) string {
	_, name := catalog.SplitName(key)
	return name
}

// objectKindName is how "must be owner of" names a kind of object.
func objectKindName(k ir.ObjectKind) string {
	return [...]string{"table", "view", "sequence", "index", "relation", "type"}[k]
}

// restrictedKinds reads restrict_nonsystem_relation_kind, a list of view
// and foreign-table (PostgreSQL's identifier list: blanks around, any case).
// zproxy has no foreign tables, so only view restricts anything.
func restrictedKinds(value string) (map[string]bool, error) {
	if strings.TrimSpace(value) == "" {
		return nil, nil // the default: no map to make for every statement
	}
	kinds := map[string]bool{}
	for _, word := range strings.Split(value, ",") {
		k := strings.ToLower(strings.TrimSpace(word))
		if k != "view" && k != "foreign-table" {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"restrict_nonsystem_relation_kind\": \"%s\"", value).
				WithDetail("Unrecognized key word: \"%s\".", strings.TrimSpace(word))
		}
		kinds[k] = true
	}
	return kinds, nil
}
