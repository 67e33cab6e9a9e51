package planner

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// Schemas. A relation outside public is keyed by "schema.name" in the
// catalog (catalog/schemas.go). Before binding a statement, qualifyNames
// turns the table names it writes into those keys: a name qualified by a
// user schema becomes the schema's key, an unqualified one the key the
// session's search_path finds (catalog.Snapshot.Resolve), and the name of
// a relation the statement creates the key in the first schema of the
// path. The rest of the binder then finds relations by key as it always
// has. Names of WITH queries are left alone, and so are names qualified by
// public, pg_catalog, information_schema and pg_temp, which the binder
// resolves itself. The AST is restored after binding, since a prepared
// statement's AST is bound again when the schema or the path changes.

// qualifyNames rewrites node's table names to catalog keys and returns
// what puts them back. It does nothing until the catalog has a user
// schema (the snapshot has no search path then).
func qualifyNames(snap *catalog.Snapshot, node ast.Node, temp bool) (restore func(), err error) {
	if _, ok := snap.SearchPath(); !ok || node == nil {
		return func() {}, nil
	}
	q := &qualifier{snap: snap, ctes: map[string]bool{}, creates: map[*ast.TableName]bool{}}
	// A created table's key is chosen by newTable (which knows whether
	// it is temporary); a view's here, unless temporary.
	switch n := node.(type) {
	case *ast.CreateTableStmt:
		q.skip = n.Table
	case *ast.CreateViewStmt:
		if temp {
			q.skip = n.ViewName
		} else {
			q.creates[n.ViewName] = true
		}
	}
	node.Accept(q)
	return func() {
		for i := len(q.saved) - 1; i >= 0; i-- {
			s := q.saved[i]
			s.tn.Schema, s.tn.Name = s.schema, s.name
		}
	}, q.err
}

type savedName struct {
	tn           *ast.TableName
	schema, name ast.CIStr
}

type qualifier struct {
	snap    *catalog.Snapshot
	ctes    map[string]bool
	creates map[*ast.TableName]bool
	skip    *ast.TableName
	saved   []savedName
	err     error
}

func (q *qualifier) Enter(n ast.Node) (ast.Node, bool) {
	switch n := n.(type) {
	case *ast.WithClause:
		for _, c := range n.CTEs {
			q.ctes[c.Name.L] = true
		}
	case *ast.TableName:
		q.qualify(n)
	}
	return n, false
}

func (q *qualifier) Leave(n ast.Node) (ast.Node, bool) { return n, true }

func (q *qualifier) qualify(tn *ast.TableName) {
	if tn == q.skip && tn.Schema.O == "" {
		return
	}
	schema, name := tn.Schema.O, tn.Name.O
	key := name
	switch {
	case schema == "":
		if q.ctes[tn.Name.L] {
			return
		}
		if q.creates[tn] {
			k, err := q.snap.CreationKey(name)
			if err != nil {
				if q.err == nil {
					q.err = err
				}
				return
			}
			key = k
		} else {
			key = q.snap.Resolve(name)
		}
	case schema == catalog.PublicSchema || schema == "pg_catalog" || schema == "information_schema" || strings.HasPrefix(schema, "pg_temp") || strings.HasPrefix(schema, "pg_toast"):
		return
	default:
		if !q.snap.HasSchema(schema) {
			return // the binder reports the unknown schema
		}
		key = catalog.QualifiedKey(schema, name)
	}
	if key == name && schema == "" {
		return
	}
	q.saved = append(q.saved, savedName{tn: tn, schema: tn.Schema, name: tn.Name})
	tn.Schema = ast.NewCIStr("")
	tn.Name = ast.CIStr{O: key, L: strings.ToLower(key)}
}

// qualifySpecial does for the statements the front end parses itself
// (their names are strings: "name", or "schema.name" for a schema other
// than public) what qualifyNames does for the AST: each relation name
// becomes the key search_path finds, a created relation's the key in the
// path's first schema, and a new name given by RENAME the key in the
// renamed relation's schema.
func qualifySpecial(snap *catalog.Snapshot, st *parser.Statement) (restore func(), err error) {
	if _, ok := snap.SearchPath(); !ok {
		return func() {}, nil
	}
	type saved struct {
		p   *string
		old string
	}
	var undo []saved
	set := func(p *string, v string) {
		if *p != v {
			undo = append(undo, saved{p, *p})
			*p = v
		}
	}
	rel := func(p *string) string {
		if *p != "" {
			set(p, snap.Resolve(*p))
		}
		return *p
	}
	create := func(p *string) {
		if strings.IndexByte(*p, '.') >= 0 {
			return
		}
		k, cerr := snap.CreationKey(*p)
		if cerr != nil {
			if err == nil {
				err = cerr
			}
			return
		}
		set(p, k)
	}
	sibling := func(of string, p *string) {
		if *p != "" && strings.IndexByte(*p, '.') < 0 {
			sc, _ := catalog.SplitName(of)
			set(p, catalog.QualifiedKey(sc, *p))
		}
	}
	// Types, domains and routines live in schema public: one qualified by
	// a user schema is refused rather than created in public.
	inSchema := func(name string) error {
		if sc, _, ok := strings.Cut(name, "."); ok && snap.HasSchema(sc) && sc != catalog.PublicSchema {
			return pgerr.New(pgerr.FeatureNotSupported, "%q: types, domains, functions and procedures in schemas other than public are not supported", name)
		}
		return nil
	}
	if t := st.Type; t != nil {
		for _, n := range t.Names {
			if err := inSchema(n); err != nil {
				return func() {}, err
			}
		}
	}
	if r := st.Routine; r != nil {
		for _, ref := range r.Refs {
			if err := inSchema(ref.Name); err != nil {
				return func() {}, err
			}
		}
	}
	if a := st.Alter; a != nil {
		index := false
		for _, act := range a.Actions {
			index = index || act.Kind == parser.AlterRenameIndex
		}
		if !index {
			key := rel(&a.Table)
			for i := range a.Actions {
				if a.Actions[i].Kind == parser.AlterRenameTable {
					sibling(key, &a.Actions[i].NewName)
				}
			}
		}
	}
	if o := st.Owner; o != nil {
		rel(&o.Name)
	}
	if t := st.Truncate; t != nil {
		for i := range t.Tables {
			rel(&t.Tables[i])
		}
	}
	if l := st.Lock; l != nil {
		for i := range l.Tables {
			rel(&l.Tables[i])
		}
	}
	if a := st.Analyze; a != nil {
		for i := range a.Tables {
			if a.Tables[i].Schema == "" {
				rel(&a.Tables[i].Name)
			}
		}
	}
	if r := st.Refresh; r != nil {
		rel(&r.Name)
	}
	if r := st.Reindex; r != nil && r.Kind == "table" {
		rel(&r.Name)
	}
	if t := st.Trigger; t != nil {
		rel(&t.Table)
	}
	if q := st.Sequence; q != nil {
		if o := q.Options.OwnedBy; o != "" && o != "none" {
			if tbl, col, ok := catalog.SplitOwnedBy(o); ok {
				set(&q.Options.OwnedBy, snap.Resolve(tbl)+"."+col)
			}
		}
		for i := range q.Names {
			if q.Kind == "create" {
				if !q.Qualified {
					create(&q.Names[i])
				}
			} else {
				key := rel(&q.Names[i])
				if i == 0 {
					sibling(key, &q.RenameTo)
				}
			}
		}
	}
	return func() {
		for i := len(undo) - 1; i >= 0; i-- {
			*undo[i].p = undo[i].old
		}
	}, err
}

// storedPath is the search path a view or materialized view created now
// keeps for its query, which is stored as text and bound again wherever
// it is read: the creating snapshot's path, or nil before any user schema
// existed (everything was in public then).
func (b *Binder) storedPath() []string {
	if p, ok := b.snap.SearchPath(); ok {
		if p == nil {
			p = []string{}
		}
		return p
	}
	return nil
}

// bindStored binds the query of a stored view or materialized view the
// way it was bound when created: its names resolved through the search
// path it was created under (path; nil for public alone), whatever the
// reading session's path is.
func (b *Binder) bindStored(path []string, node ast.StmtNode, bind func() (ir.Rel, error)) (ir.Rel, error) {
	if _, ok := b.snap.SearchPath(); !ok {
		return bind()
	}
	if path == nil {
		path = []string{catalog.PublicSchema}
	}
	saved := b.snap
	b.snap = b.snap.WithPath(path)
	defer func() { b.snap = saved }()
	restore, err := qualifyNames(b.snap, node, false)
	defer restore()
	if err != nil {
		return nil, err
	}
	return bind()
}
