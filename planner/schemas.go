package planner

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/catalog"
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
func qualifyNames(snap *catalog.Snapshot, node ast.Node) (restore func(), err error) {
	if _, ok := snap.SearchPath(); !ok || node == nil {
		return func() {}, nil
	}
	q := &qualifier{snap: snap, ctes: map[string]bool{}, creates: map[*ast.TableName]bool{}}
	switch n := node.(type) {
	case *ast.CreateTableStmt:
		q.creates[n.Table] = true
	case *ast.CreateViewStmt:
		q.creates[n.ViewName] = true
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
