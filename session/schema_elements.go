package session

import (
	"context"

	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
	"github.com/zproxy/zproxy/wire"
)

// createSchemaWithElements runs CREATE SCHEMA s [AUTHORIZATION r] element
// ... as PostgreSQL's CreateSchemaCommand does: the schema, then each
// element (in parser.SchemaElement's order) with the new schema at the
// front of search_path and the schema's owner as the current user, so
// what they create is in s and is the owner's. The statement is atomic:
// outside a transaction block it runs in one of its own, so an element
// that fails leaves neither the schema nor the elements before it.
func (st *statement) createSchemaWithElements(ctx context.Context, x *ir.SchemaChange, env *runEnv) (wire.Result, error) {
	s := st.sess
	own := s.txStatus == 'I'
	if own {
		s.txStatus = 'T'
	}
	err := st.runSchemaElements(ctx, x, env)
	if own {
		if _, cerr := s.endTransaction(ctx, err == nil); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return nil, err
	}
	return tagResult(x.Describe().Tag), nil
}

// runSchemaElements creates the schema of x and then its elements.
func (st *statement) runSchemaElements(ctx context.Context, x *ir.SchemaChange, env *runEnv) error {
	s := st.sess
	plain := *x
	plain.Elements = nil
	if _, err := st.runSchemaChange(ctx, &plain, env); err != nil {
		return err
	}
	owner := x.Role
	if x.Current {
		owner = s.ownerRole(x.Role)
	}
	if owner == "" {
		owner = s.currentUser()
	}
	name := owner // CREATE SCHEMA AUTHORIZATION r names the schema r
	if len(x.Names) > 0 {
		name = x.Names[0]
	}
	path, role := s.vars["search_path"], s.vars[varRole]
	s.putVar("search_path", quoteIdent(name)+", "+path)
	if owner != s.currentUser() {
		s.restoreRoleVar(varRole, owner)
	}
	defer func() {
		s.putVar("search_path", path)
		if s.vars[varRole] != role {
			s.restoreRoleVar(varRole, role)
		}
	}()
	for _, el := range x.Elements {
		stmts, err := parser.Parse(el.SQL)
		if err != nil {
			return err
		}
		for i := range stmts {
			res, _, err := st.sub(&stmts[i]).execute(ctx, nil, env.start)
			if err != nil {
				return err
			}
			if res != nil {
				res.Close()
			}
		}
	}
	return nil
}
