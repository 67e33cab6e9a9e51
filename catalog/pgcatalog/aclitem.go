package pgcatalog

import (
	"fmt"
	"strconv"

	"github.com/zproxy/zproxy/catalog"
	. "github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// aclitem's input and functions (sqltypes/aclitem.go holds the type):
// the input function, which must see the roles, makeaclitem, aclexplode,
// aclcontains (aclitem[] @> aclitem), aclitemeq, hash_aclitem and
// hash_aclitem_extended, as PostgreSQL 15 has them.

// ACLItemIn implements builtins.Catalog: aclitemin. Both roles must exist
// (42704); with no grantor the bootstrap superuser grants, with
// PostgreSQL's warning.
func (e *Env) ACLItemIn(s string, at int) (sqltypes.Value, error) {
	a, err := sqltypes.ParseACLItem(s)
	if err != nil {
		return sqltypes.Null, err
	}
	for _, name := range []string{a.Grantee, a.Grantor} {
		if name == "" {
			continue // PUBLIC, or a grantor the text left out
		}
		if _, ok := e.roleByName(name); !ok {
			return sqltypes.Null, pgerr.New(pgerr.UndefinedObject, "role \"%s\" does not exist", name)
		}
	}
	if a.NoGrantor {
		a.Grantor = e.aclRoleName(BootstrapOID)
		e.notice(&pgerr.Error{Code: pgerr.InvalidGrantor, Severity: "WARNING", Message: fmt.Sprintf("defaulting grantor to user ID %d", BootstrapOID), Position: at})
	}
	return sqltypes.NewText(a.String()), nil
}

// roleByName finds a role by its exact name (aclitem's names are not case
// folded: getid keeps them as written).
func (e *Env) roleByName(name string) (uint32, bool) {
	for _, r := range e.roles() {
		if r.name == name {
			return r.oid, true
		}
	}
	return 0, false
}

// aclRoleName is the name an aclitem prints for role oid: the role's
// name, "" for PUBLIC (0), the number when no role has it.
func (e *Env) aclRoleName(oid uint32) string {
	if oid == 0 {
		return ""
	}
	if n, ok := e.roleName(oid); ok {
		return n
	}
	return strconv.FormatUint(uint64(oid), 10)
}

// aclRoleOID is aclRoleName's inverse: the OID of the role an aclitem's
// text names.
func (e *Env) aclRoleOID(name string) uint32 {
	if name == "" {
		return 0
	}
	if oid, ok := e.roleByName(name); ok {
		return oid
	}
	n, _ := strconv.ParseUint(name, 10, 32) // a role since dropped prints as its OID
	return uint32(n)
}

// aclItemOIDs reads an aclitem value back: its parts and the OIDs of its
// grantee and grantor.
func (e *Env) aclItemOIDs(v sqltypes.Value) (a sqltypes.ACLSpec, grantee, grantor uint32, err error) {
	a, err = sqltypes.ParseACLItem(v.S)
	if err != nil {
		return a, 0, 0, err
	}
	return a, e.aclRoleOID(a.Grantee), e.aclRoleOID(a.Grantor), nil
}

// checkACL is PostgreSQL's check_acl of an aclitem[] argument: one
// dimension (an empty array has none), no NULLs.
func checkACL(v sqltypes.Value) ([]sqltypes.Value, error) {
	a := v.Array()
	if a == nil || len(a.Dims) != 1 {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "ACL arrays must be one-dimensional")
	}
	for _, x := range a.Elems {
		if x.IsNull() {
			return nil, pgerr.New(pgerr.NullValueNotAllowed, "ACL arrays must not contain null values")
		}
	}
	return a.Elems, nil
}

// aclArray is an aclitem[] of items (nil: NULL, PostgreSQL's "the
// kind's default" in a catalog ACL column).
func aclArray(items []string) sqltypes.Value { return stringArray(sqltypes.TypeACLItem, items) }

func registerACLItem() {
	aclP, aclsP := T(sqltypes.TypeACLItem), T(sqltypes.ArrayOf(sqltypes.TypeACLItem))

	Register("makeaclitem", fn("", []Param{oidP, oidP, textP, boolP}, sqltypes.TypeACLItem, Stable, // it names roles
		func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			e, err := needEnv(ctx)
			if err != nil {
				return sqltypes.Null, err
			}
			priv, err := sqltypes.ParseACLRight(a[2].S)
			if err != nil {
				return sqltypes.Null, err
			}
			item := sqltypes.ACLSpec{Grantee: e.aclRoleName(uint32(a[0].I)), Grantor: e.aclRoleName(uint32(a[1].I)), Privs: priv}
			if a[3].I != 0 {
				item.GrantOptions = priv
			}
			return sqltypes.NewText(item.String()), nil
		}))

	Register("aclexplode", Overload{Params: []Param{aclsP}, Result: Returns(sqltypes.TypeText), ResultPseudo: Record, Volatility: Stable,
		Set: &SetFunc{Columns: []SetColumn{{Name: "grantor", Type: sqltypes.TypeOid}, {Name: "grantee", Type: sqltypes.TypeOid},
			{Name: "privilege_type", Type: sqltypes.TypeText}, {Name: "is_grantable", Type: sqltypes.TypeBool}},
			Rows: func(ctx *Context, a []sqltypes.Value) (SetRows, error) {
				e, err := needEnv(ctx)
				if err != nil {
					return nil, err
				}
				items, err := checkACL(a[0])
				if err != nil {
					return nil, err
				}
				var rows [][]sqltypes.Value
				for _, v := range items {
					item, grantee, grantor, err := e.aclItemOIDs(v)
					if err != nil {
						return nil, err
					}
					for i := 0; i < len(sqltypes.ACLRightsLetters); i++ {
						if item.Privs&(1<<i) != 0 {
							rows = append(rows, []sqltypes.Value{sqltypes.NewOID(grantor), sqltypes.NewOID(grantee),
								sqltypes.NewText(sqltypes.ACLRightName(i)), sqltypes.NewBool(item.GrantOptions&(1<<i) != 0)})
						}
					}
				}
				return Table(rows), nil
			}}})

	// aclcontains: an item of the list with the same grantee and grantor
	// holds every privilege and grant option of item.
	contains := fn("", []Param{aclsP, aclP}, sqltypes.TypeBool, Immutable, func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		items, err := checkACL(a[0])
		if err != nil {
			return sqltypes.Null, err
		}
		want, err := sqltypes.ParseACLItem(a[1].S)
		if err != nil {
			return sqltypes.Null, err
		}
		for _, v := range items {
			have, err := sqltypes.ParseACLItem(v.S)
			if err != nil {
				return sqltypes.Null, err
			}
			if have.Grantee == want.Grantee && have.Grantor == want.Grantor && have.PrivsWord()&want.PrivsWord() == want.PrivsWord() {
				return boolV(true), nil
			}
		}
		return boolV(false), nil
	})
	Register("aclcontains", contains)
	op := contains
	op.Binary = func(ctx *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
		return contains.Eval(ctx, []sqltypes.Value{a, b})
	}
	RegisterOperator("@>", op)
	Register("aclitemeq", fn("", []Param{aclP, aclP}, sqltypes.TypeBool, Immutable, func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		return boolV(a[0].S == a[1].S), nil // canonical texts (sqltypes/aclitem.go)
	}))
	for _, name := range []string{"aclinsert", "aclremove"} {
		name := name
		Register(name, fn("", []Param{aclsP, aclP}, sqltypes.ArrayOf(sqltypes.TypeACLItem), Immutable, func(*Context, []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.Null, pgerr.New(pgerr.FeatureNotSupported, "%s is no longer supported", name)
		}))
	}

	// hash_aclitem is PostgreSQL's sum of the item's words, not a hash of
	// them; the extended form hashes that sum unless the seed is 0.
	sum := func(ctx *Context, v sqltypes.Value) (uint32, error) {
		e, err := needEnv(ctx)
		if err != nil {
			return 0, err
		}
		item, grantee, grantor, err := e.aclItemOIDs(v)
		return item.PrivsWord() + grantee + grantor, err
	}
	Register("hash_aclitem", fn("", []Param{aclP}, sqltypes.TypeInt4, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		s, err := sum(ctx, a[0])
		return sqltypes.NewInt(int64(int32(s))), err
	}))
	Register("hash_aclitem_extended", fn("", []Param{aclP, T(sqltypes.TypeInt8)}, sqltypes.TypeInt8, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		s, err := sum(ctx, a[0])
		if err != nil || a[1].I == 0 {
			return sqltypes.NewInt(int64(s)), err
		}
		return sqltypes.NewInt(int64(catalog.HashUint32Extended(s, uint64(a[1].I)))), nil
	}))
}
