package executor

import (
	"context"
	"errors"
	"slices"
	"strconv"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// Domains: CREATE DOMAIN and ALTER DOMAIN's own forms. A domain is a
// catalog.UserType whose Domain holds the definition; columns of it point
// at that definition (catalog.linkTypes), so a change to its constraints
// applies to every writer once the new schema is loaded. SET NOT NULL and
// ADD CHECK are published first, then, once the writers that planned
// without them are done, the stored values of the domain (in columns of
// it or of a domain over it) are checked, and the change is undone if one
// fails, as ALTER TABLE's SET NOT NULL (validateAlter).

// domainChange computes the catalog change of a domain statement other
// than RENAME TO, OWNER TO and DROP (typeChange's), or a notice and
// errSkip when there is nothing to change.
func domainChange(s *catalog.Snapshot, version uint64, x *ir.TypeChange, owner string) (catalog.Change, *pgerr.Error, error) {
	name := x.Names[0]
	id := catalog.ObjectID(version, 0)
	if x.Action == parser.TypeCreateDomain {
		if err := checkTypeNameFree(s, name); err != nil {
			return catalog.Change{}, nil, err
		}
		if len(x.Checks) > pgcatalog.MaxEnumLabels {
			return catalog.Change{}, nil, pgerr.New(pgerr.FeatureNotSupported, "a domain may be created with at most %d CHECK constraints", pgcatalog.MaxEnumLabels).
				WithHint("Add the rest with ALTER DOMAIN ... ADD CHECK.")
		}
		u := &catalog.UserType{Name: name, OID: pgcatalog.TypeOID(id), ArrayOID: pgcatalog.TypeArrayOID(id), Owner: owner}
		base, err := currentBase(s, x.Base)
		if err != nil {
			return catalog.Change{}, nil, err
		}
		d := &sqltypes.DomainType{OID: u.OID, ArrayOID: u.ArrayOID, Name: name, Base: base, NotNull: x.NotNull, Default: x.Default}
		if p := d.Parent(); p != nil && d.Default == "" {
			d.Default = p.Default // PostgreSQL copies the base domain's
		}
		for i, c := range x.Checks {
			if err := addDomainCheck(d, c, pgcatalog.DomainCheckOID(id, i), false); err != nil {
				return catalog.Change{}, nil, err
			}
		}
		u.Domain = d
		return catalog.Change{PutTypes: []*catalog.UserType{u}}, nil, nil
	}
	// COMMENT ON quotes the name, as PostgreSQL's get_object_address_type
	// does (ALTER DOMAIN does not).
	cur, err := domainNamed(s, name, x.Action == parser.DomainCommentConstraint)
	if err != nil {
		return catalog.Change{}, nil, err
	}
	u := cur.Clone()
	d := u.Domain
	switch x.Action {
	case parser.DomainSetDefault:
		d.Default = x.Default
	case parser.DomainSetNotNull:
		if d.NotNull == x.NotNull {
			return catalog.Change{}, nil, errSkip
		}
		d.NotNull = x.NotNull
	case parser.DomainAddCheck:
		if err := addDomainCheck(d, x.Checks[0], pgcatalog.DomainCheckOID(id, 0), x.NotValid); err != nil {
			return catalog.Change{}, nil, err
		}
	case parser.DomainDropConstraint:
		i := domainCheckIndex(d, x.Value)
		if i < 0 {
			if x.MissingOK {
				return catalog.Change{}, pgerr.Notice("constraint \"%s\" of domain \"%s\" does not exist, skipping", x.Value, name), errSkip
			}
			return catalog.Change{}, nil, pgerr.New(pgerr.UndefinedObject, "constraint \"%s\" of domain \"%s\" does not exist", x.Value, name)
		}
		d.Checks = slices.Delete(d.Checks, i, i+1)
	case parser.DomainRenameConstraint:
		i := domainCheckIndex(d, x.Value)
		if i < 0 {
			return catalog.Change{}, nil, pgerr.New(pgerr.UndefinedObject, "constraint \"%s\" for domain %s does not exist", x.Value, d.TypeName())
		}
		if domainCheckIndex(d, x.NewName) >= 0 {
			return catalog.Change{}, nil, pgerr.New(pgerr.DuplicateObject, "constraint \"%s\" for domain %s already exists", x.NewName, d.TypeName())
		}
		d.Checks[i].Name = x.NewName
	case parser.DomainCommentConstraint:
		i := domainCheckIndex(d, x.Value)
		if i < 0 {
			return catalog.Change{}, nil, pgerr.New(pgerr.UndefinedObject, "constraint \"%s\" for domain %s does not exist", x.Value, d.TypeName())
		}
		d.Checks[i].Comment = x.Comment
	case parser.DomainValidate:
		i := domainCheckIndex(d, x.Value)
		if i < 0 {
			return catalog.Change{}, nil, pgerr.New(pgerr.UndefinedObject, "constraint \"%s\" of domain \"%s\" does not exist", x.Value, name)
		}
		if !d.Checks[i].NotValid {
			return catalog.Change{}, nil, errSkip
		}
		d.Checks[i].NotValid = false
	}
	return catalog.Change{PutTypes: []*catalog.UserType{u}}, nil, nil
}

// currentBase is a new domain's base type as the snapshot the change
// commits on defines it (the binder's may be older).
func currentBase(s *catalog.Snapshot, base sqltypes.Type) (sqltypes.Type, error) {
	if base.UDT() == 0 {
		return base, nil
	}
	for _, u := range s.UserTypes() {
		if u.OID != base.UDT() {
			continue
		}
		t := u.Type()
		if base.Domain != nil && !base.IsDomain() || base.Domain == nil && base.ID == sqltypes.Array {
			t = sqltypes.ArrayOf(t)
		}
		return t, nil
	}
	return sqltypes.Type{}, pgerr.New(pgerr.UndefinedObject, "type with OID %d does not exist", base.UDT())
}

// domainNamed finds the named domain; forDrop words its errors as DROP
// DOMAIN does.
func domainNamed(s *catalog.Snapshot, name string, forDrop bool) (*catalog.UserType, error) {
	u, ok := s.UserTypeByKey(name)
	switch {
	case !ok && s.HasRelation(name) && forDrop:
		return nil, pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a domain", name)
	case !ok && s.HasRelation(name):
		return nil, pgerr.New(pgerr.WrongObjectType, "%s is not a domain", sqltypes.QuoteTypeKey(name))
	case !ok:
		return nil, pgerr.New(pgerr.UndefinedObject, "type \"%s\" does not exist", name)
	case u.Domain == nil && forDrop:
		return nil, pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a domain", name)
	case u.Domain == nil:
		return nil, pgerr.New(pgerr.WrongObjectType, "%s is not a domain", sqltypes.QuoteTypeKey(name))
	}
	return u, nil
}

// addDomainCheck adds c to d, naming it as PostgreSQL does when it has no
// name: the domain's name and _check, then _check1, _check2, ...
func addDomainCheck(d *sqltypes.DomainType, c parser.NamedCheck, oid uint32, notValid bool) error {
	name := c.Name
	if name == "" {
		_, bare := catalog.SplitName(d.Name) // d.Name is the catalog's key
		base := sqltypes.TruncateIdent(bare, maxIdentLen-len("_check"))
		name = base + "_check"
		for i := 1; domainCheckIndex(d, name) >= 0; i++ {
			suffix := strconv.Itoa(i)
			name = sqltypes.TruncateIdent(bare, maxIdentLen-len("_check")-len(suffix)) + "_check" + suffix
		}
	} else if domainCheckIndex(d, name) >= 0 {
		return pgerr.New(pgerr.DuplicateObject, "constraint \"%s\" for domain \"%s\" already exists", name, d.Name)
	}
	d.Checks = append(d.Checks, sqltypes.DomainCheck{Name: name, SQL: c.SQL, OID: oid, NotValid: notValid})
	return nil
}

// maxIdentLen is PostgreSQL's NAMEDATALEN-1.
const maxIdentLen = 63

func domainCheckIndex(d *sqltypes.DomainType, name string) int {
	return slices.IndexFunc(d.Checks, func(c sqltypes.DomainCheck) bool { return c.Name == name })
}

// validatesDomain reports whether x is a domain change the stored values
// must pass: SET NOT NULL, ADD CHECK (not NOT VALID), VALIDATE.
func validatesDomain(x *ir.TypeChange) bool {
	switch x.Action {
	case parser.DomainSetNotNull:
		return x.NotNull
	case parser.DomainAddCheck:
		return !x.NotValid
	case parser.DomainValidate:
		return true
	}
	return false
}

// changeDomainValidated publishes a change validatesDomain names, checks
// the stored values against it once the writers that planned without it
// are done, and undoes it when one fails. Inside a transaction block it
// checks the values the block sees (a failure fails the block, which
// undoes the change), and the others after the commit, as ALTER TABLE's
// SET NOT NULL does (validateAlter).
func (e *Executor) changeDomainValidated(ctx context.Context, cat *catalog.Catalog, x *ir.TypeChange, owner string) error {
	var before, after *catalog.UserType
	_, err := cat.Update(ctx, func(s *catalog.Snapshot, version uint64) (catalog.Change, error) {
		before, after = nil, nil
		ch, _, err := domainChange(s, version, x, owner)
		if err != nil {
			return ch, err
		}
		before, _ = s.UserTypeByKey(x.Names[0])
		after = ch.PutTypes[0]
		return ch, nil
	})
	if errors.Is(err, errSkip) {
		return nil
	}
	if err != nil {
		return err
	}
	if cat.InBlock() {
		if err := e.checkDomainValues(ctx, cat, before.Domain, after.Domain, x); err != nil {
			return err
		}
		return e.afterCommit(ctx, cat, "checking the values of domain "+after.Domain.TypeName(), func(ctx context.Context, cat *catalog.Catalog) error {
			return e.validateDomain(ctx, cat, before.Domain, after.Domain, x)
		})
	}
	return e.validateDomain(ctx, cat, before.Domain, after.Domain, x)
}

// validateDomain checks the stored values against what x published, once
// the writers that planned without it are done, and undoes it when one
// fails.
func (e *Executor) validateDomain(ctx context.Context, cat *catalog.Catalog, before, after *sqltypes.DomainType, x *ir.TypeChange) error {
	if err := e.outwaitWriters(ctx, cat); err != nil {
		return err
	}
	failed := e.checkDomainValues(ctx, cat, before, after, x)
	if failed == nil {
		return nil
	}
	var added uint32 // ADD's CHECK, the last
	if n := len(after.Checks); n > 0 {
		added = after.Checks[n-1].OID
	}
	_, uerr := cat.Update(ctx, func(s *catalog.Snapshot, _ uint64) (catalog.Change, error) {
		cur, ok := s.UserTypeByKey(x.Names[0])
		if !ok || cur.Domain == nil {
			return catalog.Change{}, errSkip
		}
		u := cur.Clone()
		switch x.Action {
		case parser.DomainSetNotNull:
			u.Domain.NotNull = false
		case parser.DomainAddCheck:
			u.Domain.Checks = slices.DeleteFunc(u.Domain.Checks, func(c sqltypes.DomainCheck) bool { return c.OID == added })
		case parser.DomainValidate:
			return catalog.Change{}, errSkip // it stays not valid
		}
		return catalog.Change{PutTypes: []*catalog.UserType{u}}, nil
	})
	if uerr != nil && !errors.Is(uerr, errSkip) {
		return errors.Join(failed, uerr)
	}
	return failed
}

// checkDomainValues checks the values of the columns of domain d (or of a
// domain over it) against what x adds to it: NOT NULL, or the CHECK that
// after has and before had not (or had not valid).
func (e *Executor) checkDomainValues(ctx context.Context, cat *catalog.Catalog, before, after *sqltypes.DomainType, x *ir.TypeChange) error {
	snap, err := cat.Snapshot(ctx)
	if err != nil {
		return err
	}
	probe := &sqltypes.DomainType{Name: after.Name, Base: after.Base.StripDomain(), Env: after.Env}
	if x.Action != parser.DomainSetNotNull {
		for _, c := range after.Checks {
			if i := domainCheckIndex(before, c.Name); i < 0 || before.Checks[i].NotValid {
				c.NotValid = false
				probe.Checks = append(probe.Checks, c)
			}
		}
		if probe.Env == nil {
			probe.Env = before.Env
		}
	}
	oids := domainFamily(snap, after.OID)
	for _, t := range snap.Tables() {
		for _, c := range t.Columns {
			if c.Type.Domain != nil && !c.Type.IsDomain() && oids[c.Type.Domain.OID] {
				// PostgreSQL 15 does not look into arrays of the domain.
				return pgerr.New(pgerr.FeatureNotSupported, "cannot alter type \"%s\" because column \"%s.%s\" uses it", c.Type.Domain.Name, t.Name, c.Name)
			}
		}
	}
	for _, t := range snap.Tables() {
		for i, c := range t.Columns {
			if !c.Type.IsDomain() || !oids[c.Type.Domain.OID] {
				continue
			}
			err := e.eachRow(ctx, e.rowsOf(ctx, cat, t), t, func(row []sqltypes.Value) error {
				v := row[i]
				if x.Action == parser.DomainSetNotNull {
					if v.IsNull() {
						return pgerr.New(pgerr.NotNullViolation, "column \"%s\" of table \"%s\" contains null values", c.Name, t.Name)
					}
					return nil
				}
				err := probe.Check(v, true)
				if pgerr.CodeOf(err) == pgerr.CheckViolation {
					return pgerr.New(pgerr.CheckViolation, "column \"%s\" of table \"%s\" contains values that violate the new constraint", c.Name, t.Name)
				}
				return err
			})
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// domainFamily is the set of the OIDs of domain oid and the domains over
// it, at any depth.
func domainFamily(s *catalog.Snapshot, oid uint32) map[uint32]bool {
	family := map[uint32]bool{oid: true}
	for grew := true; grew; {
		grew = false
		for _, u := range s.UserTypes() {
			if u.Domain == nil || family[u.OID] {
				continue
			}
			if p := u.Domain.Parent(); p != nil && family[p.OID] {
				family[u.OID], grew = true, true
			}
		}
	}
	return family
}

// typeDependents is the DETAIL of DROP's 2BP01 for type u: the domains
// over it, then the columns of it, as PostgreSQL lists what depends on a
// type; "" when nothing does.
func typeDependents(s *catalog.Snapshot, u *catalog.UserType, dropping []string) (string, *catalog.Table) {
	var lines []string
	for _, d := range s.DomainsOver(u.OID) {
		if slices.Contains(dropping, d.Name) {
			continue // dropped by the same statement
		}
		lines = append(lines, "type "+sqltypes.QuoteTypeKey(d.Name)+" depends on type "+sqltypes.QuoteTypeKey(u.Name))
	}
	var first *catalog.Table
	for _, t := range s.TypeUsers(u.OID) {
		if first == nil {
			first = t
		}
		c := t.Columns[catalog.TypeColumn(t, u.OID)]
		lines = append(lines, "column "+c.Name+" of table "+t.Name+" depends on type "+c.Type.String())
	}
	for _, r := range s.UserTypes() {
		if r.Range != nil && r.Range.Subtype.UDT() == u.OID && !slices.Contains(dropping, r.Name) {
			lines = append(lines, "type "+sqltypes.QuoteTypeKey(r.Name)+" depends on type "+sqltypes.QuoteTypeKey(u.Name))
		}
	}
	lines = append(lines, compositeDependents(s, u, dropping)...)
	lines = append(lines, typeObjectDependents(s, u)...)
	detail := ""
	for i, l := range lines {
		if i > 0 {
			detail += "\n"
		}
		detail += l
	}
	return detail, first
}
