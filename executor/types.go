package executor

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// maxEnumLabel is the longest label in bytes (PostgreSQL's NAMEDATALEN-1).
const maxEnumLabel = 63

// maxCreateLabels bounds CREATE TYPE's labels: each takes one of the OIDs
// of the type's catalog ID (pgcatalog.EnumLabelOID).
const maxCreateLabels = pgcatalog.MaxEnumLabels

// ChangeType applies CREATE TYPE ... AS ENUM, ALTER TYPE or DROP TYPE to
// the catalog. owner owns a created type.
func (e *Executor) ChangeType(ctx context.Context, cat *catalog.Catalog, x *ir.TypeChange, owner string, notice func(*pgerr.Error)) error {
	if validatesDomain(x) {
		return e.changeDomainValidated(ctx, cat, x, owner)
	}
	return updateWithNotices(ctx, cat, func(s *catalog.Snapshot, version uint64) (catalog.Change, []*pgerr.Error, error) {
		ch, n, err := typeChange(s, version, x, owner)
		if n != nil {
			return ch, []*pgerr.Error{n}, err
		}
		return ch, nil, err
	}, notice)
}

// updateWithNotices applies the change fn computes, as cat.Update, then
// sends the notices of its last computation (what it skipped); errSkip
// from fn is a change of nothing.
func updateWithNotices(ctx context.Context, cat *catalog.Catalog, fn func(s *catalog.Snapshot, version uint64) (catalog.Change, []*pgerr.Error, error), notice func(*pgerr.Error)) error {
	var notes []*pgerr.Error
	_, err := cat.Update(ctx, func(s *catalog.Snapshot, version uint64) (catalog.Change, error) {
		ch, n, err := fn(s, version)
		notes = n
		return ch, err
	})
	if errors.Is(err, errSkip) {
		err = nil
	}
	if err == nil {
		for _, n := range notes {
			notice(n)
		}
	}
	return err
}

// typeChange computes the catalog change of x on s, or a notice and
// errSkip when there is nothing to change.
func typeChange(s *catalog.Snapshot, version uint64, x *ir.TypeChange, owner string) (catalog.Change, *pgerr.Error, error) {
	if x.Action == parser.TypeDrop {
		return dropTypes(s, x)
	}
	if isCompositeAction(x) {
		return compositeChange(s, version, x, owner)
	}
	if x.Domain && x.Action != parser.TypeRename && x.Action != parser.TypeOwner && x.Action != parser.TypeComment {
		return domainChange(s, version, x, owner)
	}
	name := x.Names[0]
	if x.Action == parser.TypeCreateRange {
		return createRangeType(s, version, x, owner)
	}
	if x.Action == parser.TypeCreateEnum {
		if err := checkTypeNameFree(s, name); err != nil {
			return catalog.Change{}, nil, err
		}
		if len(x.Labels) > maxCreateLabels {
			return catalog.Change{}, nil, pgerr.New(pgerr.FeatureNotSupported, "an enum type may be created with at most %d labels", maxCreateLabels).
				WithHint("Add the rest with ALTER TYPE ... ADD VALUE.")
		}
		id := catalog.ObjectID(version, 0)
		u := &catalog.UserType{Name: name, OID: pgcatalog.TypeOID(id), ArrayOID: pgcatalog.TypeArrayOID(id), Owner: owner}
		u.Enum = &sqltypes.EnumType{OID: u.OID, ArrayOID: u.ArrayOID, Name: name}
		for i, label := range x.Labels {
			if err := checkEnumLabel(label); err != nil {
				return catalog.Change{}, nil, err
			}
			if _, dup := u.Enum.Label(label); dup {
				return catalog.Change{}, nil, pgerr.New(pgerr.UniqueViolation, "duplicate key value violates unique constraint \"pg_enum_typid_label_index\"").
					WithDetail("Key (enumtypid, enumlabel)=(%d, %s) already exists.", u.OID, label)
			}
			u.Enum.Labels = append(u.Enum.Labels, sqltypes.EnumLabel{OID: pgcatalog.EnumLabelOID(id, i), Label: label, Order: float64(i + 1)})
		}
		return catalog.Change{PutTypes: []*catalog.UserType{u}}, nil, nil
	}
	cur, ok := s.UserTypeByKey(name)
	if !ok {
		return catalog.Change{}, nil, pgerr.New(pgerr.UndefinedObject, "type \"%s\" does not exist", name)
	}
	switch {
	case x.Domain && cur.Domain == nil && x.Action == parser.TypeComment:
		// COMMENT ON DOMAIN quotes the name, as PostgreSQL's
		// get_object_address_type does (ALTER DOMAIN does not).
		return catalog.Change{}, nil, pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a domain", sqltypes.QuoteKey(name))
	case x.Domain && cur.Domain == nil:
		return catalog.Change{}, nil, pgerr.New(pgerr.WrongObjectType, "%s is not a domain", sqltypes.QuoteTypeKey(name))
	case (x.Action == parser.TypeAddValue || x.Action == parser.TypeRenameValue) && cur.Enum == nil:
		return catalog.Change{}, nil, pgerr.New(pgerr.WrongObjectType, "%s is not an enum", sqltypes.QuoteTypeKey(name))
	case cur.Multirange && x.Action == parser.TypeOwner && x.NewName == cur.Owner:
		return catalog.Change{}, nil, errSkip // no change, as PostgreSQL allows
	case cur.Multirange && x.Action == parser.TypeOwner:
		return catalog.Change{}, nil, pgerr.New(pgerr.WrongObjectType, "cannot alter multirange type %s", sqltypes.QuoteTypeKey(name)).
			WithHint("You can alter type %s, which will alter the multirange type as well.", sqltypes.QuoteTypeKey(cur.Range.Name))
	case cur.Multirange:
		return catalog.Change{}, nil, pgerr.New(pgerr.FeatureNotSupported, "renaming a multirange type is not supported").
			WithHint("Rename its range type %s, or create the range type again with multirange_type_name.", sqltypes.QuoteTypeKey(cur.Range.Name))
	}
	u := cur.Clone()
	ch := catalog.Change{PutTypes: []*catalog.UserType{u}}
	switch x.Action {
	case parser.TypeComment:
		u.Comment = x.Comment
	case parser.TypeAddValue:
		if _, exists := u.Enum.Label(x.Value); exists {
			if x.MissingOK {
				return catalog.Change{}, pgerr.Notice("enum label \"%s\" already exists, skipping", x.Value), errSkip
			}
			return catalog.Change{}, nil, pgerr.New(pgerr.DuplicateObject, "enum label \"%s\" already exists", x.Value)
		}
		if err := checkEnumLabel(x.Value); err != nil {
			return catalog.Change{}, nil, err
		}
		at, order, err := enumPosition(u.Enum, x)
		if err != nil {
			return catalog.Change{}, nil, err
		}
		l := sqltypes.EnumLabel{OID: pgcatalog.EnumLabelOID(catalog.ObjectID(version, 0), 0), Label: x.Value, Order: order, Added: version}
		u.Enum.Labels = slices.Insert(u.Enum.Labels, at, l)
	case parser.TypeRenameValue:
		i := slices.IndexFunc(u.Enum.Labels, func(l sqltypes.EnumLabel) bool { return l.Label == x.Value })
		if i < 0 {
			return catalog.Change{}, nil, pgerr.New(pgerr.InvalidParameterValue, "\"%s\" is not an existing enum label", x.Value)
		}
		if _, exists := u.Enum.Label(x.NewName); exists {
			return catalog.Change{}, nil, pgerr.New(pgerr.DuplicateObject, "enum label \"%s\" already exists", x.NewName)
		}
		if err := checkEnumLabel(x.NewName); err != nil {
			return catalog.Change{}, nil, err
		}
		u.Enum.Labels[i].Label = x.NewName
	case parser.TypeRename:
		if err := checkTypeNameFree(s, x.NewName); err != nil {
			return catalog.Change{}, nil, err
		}
		ch.PutTypes = []*catalog.UserType{renamedType(u, x.NewName)}
		ch.DeleteTypes = []string{name}
	case parser.TypeOwner:
		role := x.NewName
		if !roleExists(s, role) {
			return catalog.Change{}, nil, pgerr.New(pgerr.UndefinedObject, "role \"%s\" does not exist", role)
		}
		if u.ACL != nil {
			// The old owner's privileges become the new owner's, as
			// PostgreSQL's aclnewowner moves them.
			u.ACL = u.WithACL(pgcatalog.UserTypeOwner(u)).ACL
			catalog.MoveACLOwner(u.ACL, pgcatalog.UserTypeOwner(u), role)
		}
		u.Owner = role
	}
	return ch, nil, nil
}

// dropTypes is DROP TYPE. A type some column has cannot be dropped, even
// with CASCADE, which would drop the columns: zproxy refuses that (0A000)
// rather than drop data a user may not have meant.
func dropTypes(s *catalog.Snapshot, x *ir.TypeChange) (catalog.Change, *pgerr.Error, error) {
	var ch catalog.Change
	var missing []string
	for _, name := range x.Names {
		u, ok := s.UserTypeByKey(name)
		if !ok && x.Domain && s.HasRelation(name) {
			_, err := domainNamed(s, name, true)
			return catalog.Change{}, nil, err
		}
		if !ok {
			if !x.MissingOK {
				return catalog.Change{}, nil, pgerr.New(pgerr.UndefinedObject, "type \"%s\" does not exist", name)
			}
			missing = append(missing, name)
			continue
		}
		if x.Domain && u.Domain == nil {
			return catalog.Change{}, nil, pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a domain", name)
		}
		if u.Multirange {
			return catalog.Change{}, nil, pgerr.New(pgerr.DependentObjectsStillExist, "cannot drop type %s because type %s requires it", sqltypes.QuoteTypeKey(name), sqltypes.QuoteTypeKey(u.Range.Name)).
				WithHint("You can drop type %s instead.", sqltypes.QuoteTypeKey(u.Range.Name))
		}
		if detail, _ := typeDependents(s, u, x.Names); detail != "" {
			kind := "TYPE"
			if x.Domain {
				kind = "DOMAIN"
			}
			if x.Cascade {
				return catalog.Change{}, nil, pgerr.New(pgerr.FeatureNotSupported, "DROP %s ... CASCADE of a type that columns or domains depend on is not supported", kind).
					WithDetail("%s", detail).
					WithHint("Drop or change the dependent objects first.")
			}
			return catalog.Change{}, nil, pgerr.New(pgerr.DependentObjectsStillExist, "cannot drop type %s because other objects depend on it", sqltypes.QuoteTypeKey(name)).
				WithDetail("%s", detail).
				WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
		}
		ch.DeleteTypes = append(ch.DeleteTypes, name)
	}
	var n *pgerr.Error
	if len(missing) > 0 {
		n = pgerr.Notice("type \"%s\" does not exist, skipping", missing[0])
	}
	if len(ch.DeleteTypes) == 0 {
		return ch, n, errSkip
	}
	return ch, n, nil
}

// checkTypeNameFree refuses a type name a type or relation (whose row
// type has its name) already has.
func checkTypeNameFree(s *catalog.Snapshot, name string) error {
	if _, ok := s.UserTypeByKey(name); ok {
		return pgerr.New(pgerr.DuplicateObject, "type \"%s\" already exists", name)
	}
	if s.HasRelation(name) {
		return pgerr.New(pgerr.DuplicateObject, "type \"%s\" already exists", name).
			WithHint("A relation has an associated type of the same name, so you must use a name that doesn't conflict with any existing type.")
	}
	return nil
}

func checkEnumLabel(label string) error {
	if len(label) > maxEnumLabel || label == "" {
		return pgerr.New(pgerr.InvalidName, "invalid enum label \"%s\"", label).
			WithDetail("Labels must be %d bytes or less.", maxEnumLabel)
	}
	return nil
}

// enumPosition finds where ADD VALUE puts its label: the index in Labels
// and its sort order, PostgreSQL's: after the last label by default, else
// midway between the neighbour and the label beside it (one below the
// first, one above the last). Orders are float64 and never renumbered
// (rows store them), so a position that has been split some fifty times
// over has no order left between its neighbours and is refused.
func enumPosition(e *sqltypes.EnumType, x *ir.TypeChange) (int, float64, error) {
	n := len(e.Labels)
	if x.Neighbour == "" {
		if n == 0 {
			return 0, 1, nil
		}
		return n, e.Labels[n-1].Order + 1, nil
	}
	i := slices.IndexFunc(e.Labels, func(l sqltypes.EnumLabel) bool { return l.Label == x.Neighbour })
	if i < 0 {
		return 0, 0, pgerr.New(pgerr.InvalidParameterValue, "\"%s\" is not an existing enum label", x.Neighbour)
	}
	var lo, hi float64
	at := i
	switch {
	case x.Before && i == 0:
		return 0, e.Labels[0].Order - 1, nil
	case x.Before:
		lo, hi = e.Labels[i-1].Order, e.Labels[i].Order
	case i == n-1:
		return n, e.Labels[i].Order + 1, nil
	default:
		lo, hi, at = e.Labels[i].Order, e.Labels[i+1].Order, i+1
	}
	mid := lo + (hi-lo)/2
	if mid <= lo || mid >= hi {
		return 0, 0, pgerr.New(pgerr.FeatureNotSupported, "no sort order is left between enum labels %q and %q",
			e.Labels[at-1].Label, e.Labels[at].Label).WithHint("Create the type again with its labels in order.")
	}
	return at, mid, nil
}

// renamedType is a copy of u keyed (and named) key: ALTER TYPE RENAME,
// SET SCHEMA and ALTER SCHEMA RENAME.
func renamedType(u *catalog.UserType, key string) *catalog.UserType {
	c := u.Clone()
	c.Name = key
	if c.Enum != nil {
		c.Enum.Name = key
	}
	if c.Domain != nil {
		c.Domain.Name = key
	}
	if c.Composite != nil {
		c.Composite.Name = key
	}
	if c.Range != nil {
		// Its multirange type stays where it is, as PostgreSQL 15's
		// AlterTypeNamespace leaves it.
		c.Range.Name = key
	}
	return c
}

// createRangeType is CREATE TYPE ... AS RANGE: the range type the binder
// checked (x.Range), named, with its multirange type (named by
// multirange_type_name, or as PostgreSQL's makeMultirangeTypeName names
// it in the range type's schema), and the OIDs of both and their arrays.
func createRangeType(s *catalog.Snapshot, version uint64, x *ir.TypeChange, owner string) (catalog.Change, *pgerr.Error, error) {
	name := x.Names[0]
	if err := checkTypeNameFree(s, name); err != nil {
		return catalog.Change{}, nil, err
	}
	sc, bare := catalog.SplitName(name)
	multi := x.TypeStatement.Range.MultirangeTypeName // a key (planner/schemas.go)
	if multi == "" {
		if i := strings.Index(bare, "range"); i >= 0 {
			multi = bare[:i] + "multirange" + bare[i+len("range"):]
		} else {
			multi = bare + "_multirange"
		}
		multi = catalog.QualifiedKey(sc, multi)
	}
	if err := checkTypeNameFree(s, multi); err != nil || multi == name {
		if err == nil {
			err = pgerr.New(pgerr.DuplicateObject, "type \"%s\" already exists", multi)
		}
		pe := pgerr.As(err)
		if x.TypeStatement.Range.MultirangeTypeName == "" {
			pe = pe.WithDetail("Failed while creating a multirange type for type \"%s\".", bare).
				WithHint("You can manually specify a multirange type name using the \"multirange_type_name\" attribute.")
		}
		return catalog.Change{}, nil, pe
	}
	id, mid := catalog.ObjectID(version, 0), catalog.ObjectID(version, 1)
	r := *x.RangeDef
	r.Name, r.MultiName = name, multi
	r.OID, r.ArrayOID = pgcatalog.TypeOID(id), pgcatalog.TypeArrayOID(id)
	r.MultiOID, r.MultiArrayOID = pgcatalog.TypeOID(mid), pgcatalog.TypeArrayOID(mid)
	u := &catalog.UserType{Name: name, OID: r.OID, ArrayOID: r.ArrayOID, Owner: owner, Range: &r}
	return catalog.Change{PutTypes: []*catalog.UserType{u}}, nil, nil
}

// roleExists reports whether role is a role OWNER TO or GRANT may name:
// a stored or predefined one, or the bootstrap superuser, which no role
// item stores.
func roleExists(s *catalog.Snapshot, role string) bool {
	return s.RoleExists(role) || role == pgcatalog.BootstrapRole
}
