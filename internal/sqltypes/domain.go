package sqltypes

import (
	"sort"
	"sync"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// Domains (CREATE DOMAIN). A domain is its base type with constraints: a
// Type of a domain is the base type's Type (ID, Elem, modifiers, Enum:
// those of the innermost base, so every switch on ID or Kind sees the
// base) with Domain pointing at the DomainType. A value of a domain is
// the base type's value: rows, keys and wire formats are the base type's;
// the domain decides the type's name and OID (pg_typeof, format_type,
// atttypid) and which values casts and writes accept.
//
// Type{ID: Array, Domain: d} is either an array of d (d's base is no
// array: the type d[], pg_type's _d) or d itself when d is a domain over
// an array type; IsDomain tells them apart.

// DomainType is one domain's definition.
type DomainType struct {
	OID      uint32 `json:"oid"`
	ArrayOID uint32 `json:"array_oid"`
	Name     string `json:"name"`
	// Base is the type the domain was created over: a built-in or enum
	// type, or another domain (whose constraints apply too).
	Base    Type `json:"base"`
	NotNull bool `json:"not_null,omitempty"`
	// Default is the DEFAULT expression as written ("" for none); a
	// domain created over another without one takes the other's then, as
	// PostgreSQL copies it.
	Default string `json:"default,omitempty"`
	// Checks are the CHECK constraints, in creation order.
	Checks []DomainCheck `json:"checks,omitempty"`

	// Env is what binds the CHECK expressions (the catalog snapshot the
	// domain belongs to), for BindDomainCheck.
	Env any `json:"-"`

	once     sync.Once
	compiled []compiledCheck
	bindErr  error
}

// DomainCheck is a domain's CHECK constraint: pg_constraint's row.
type DomainCheck struct {
	Name string `json:"name"`
	// SQL is the expression as written, VALUE standing for the value.
	SQL string `json:"sql"`
	OID uint32 `json:"oid"`
	// NotValid: added NOT VALID and not validated since (values stored
	// before it may violate it; new ones may not).
	NotValid bool `json:"not_valid,omitempty"`
	// Comment is COMMENT ON CONSTRAINT ... ON DOMAIN's text: it goes
	// with the constraint (RENAME CONSTRAINT keeps it, DROP drops it).
	Comment string `json:"comment,omitempty"`
}

type compiledCheck struct {
	check    *DomainCheck
	eval     DomainCheckFunc
	notValid bool
}

// DomainCheckFunc evaluates a domain's CHECK on a value of its base type:
// false when the value violates it (NULL passes).
type DomainCheckFunc func(v Value) (ok bool, err error)

// BindDomainCheck binds the CHECK expression sql of domain d; the planner
// installs it (the expression may call any function).
var BindDomainCheck func(d *DomainType, sql string) (DomainCheckFunc, error)

// DomainOf returns the type of domain d.
func DomainOf(d *DomainType) Type {
	t := d.Base
	t.Domain = d
	return t
}

// TypeName is the domain's name as format_type prints it (qualified
// outside public: Name is the catalog's key).
func (d *DomainType) TypeName() string { return QuoteTypeKey(d.Name) }

// Parent is the domain d was created over, or nil.
func (d *DomainType) Parent() *DomainType {
	if d.Base.IsDomain() {
		return d.Base.Domain
	}
	return nil
}

// Clone returns a copy of d to change (without its compiled checks).
func (d *DomainType) Clone() *DomainType {
	return &DomainType{OID: d.OID, ArrayOID: d.ArrayOID, Name: d.Name, Base: d.Base, NotNull: d.NotNull,
		Default: d.Default, Checks: append([]DomainCheck(nil), d.Checks...), Env: d.Env}
}

// IsDomain reports whether t is a domain (not an array of one).
func (t Type) IsDomain() bool {
	return t.Domain != nil && (t.ID != Array || t.Domain.Base.ID == Array)
}

// StripDomain returns the base type of a domain, or of an array of one,
// all the way down (t itself for other types).
func (t Type) StripDomain() Type {
	t.Domain = nil
	return t
}

// WireOID is the type OID the wire protocol reports for a result column
// of type t: a domain's base type's, as PostgreSQL's RowDescription
// reports it (an array of a domain is a type of its own).
func (t Type) WireOID() uint32 {
	if t.IsDomain() {
		return t.StripDomain().OID()
	}
	return t.OID()
}

// Check enforces d's constraints on v, a value of its base type: those of
// the domains it is over first, then NOT NULL, then the CHECKs by name,
// as PostgreSQL orders them. notValid includes the CHECKs added NOT VALID
// (a cast's or an input's value must pass them; a stored row's need not).
func (d *DomainType) Check(v Value, notValid bool) error { return d.check(d, v, notValid) }

func (d *DomainType) check(top *DomainType, v Value, notValid bool) error {
	if p := d.Parent(); p != nil {
		if err := p.check(top, v, notValid); err != nil {
			return err
		}
	}
	if d.NotNull && v.IsNull() {
		return pgerr.New(pgerr.NotNullViolation, "domain %s does not allow null values", top.TypeName())
	}
	if len(d.Checks) == 0 {
		return nil
	}
	d.once.Do(d.compile)
	if d.bindErr != nil {
		return d.bindErr
	}
	for _, c := range d.compiled {
		if c.notValid && !notValid {
			continue
		}
		ok, err := c.eval(v)
		if err != nil {
			return err
		}
		if !ok {
			return pgerr.New(pgerr.CheckViolation, "value for domain %s violates check constraint \"%s\"", top.TypeName(), c.check.Name)
		}
	}
	return nil
}

// compile binds d's CHECKs, in name order.
func (d *DomainType) compile() {
	if BindDomainCheck == nil {
		d.bindErr = pgerr.New(pgerr.InternalError, "domain %s: no binder for its constraints", d.Name)
		return
	}
	for i := range d.Checks {
		c := &d.Checks[i]
		f, err := BindDomainCheck(d, c.SQL)
		if err != nil {
			d.bindErr = err
			return
		}
		d.compiled = append(d.compiled, compiledCheck{check: c, eval: f, notValid: c.NotValid})
	}
	sort.SliceStable(d.compiled, func(i, j int) bool { return d.compiled[i].check.Name < d.compiled[j].check.Name })
}

// CheckDomain enforces the constraints of t's domain on v when t is a
// domain or an array of one (each element); other types accept anything.
// notValid is as in DomainType.Check.
func CheckDomain(t Type, v Value, notValid bool) error {
	switch {
	case t.Domain == nil:
		return nil
	case t.IsDomain():
		return t.Domain.Check(v, notValid)
	case v.K == KindArray:
		for _, e := range v.Array().Elems {
			if err := t.Domain.Check(e, notValid); err != nil {
				return err
			}
		}
	}
	return nil
}

// castDomain is a cast to a domain or an array of one: a cast to the base
// type, then the domain's constraints.
func castDomain(v Value, t Type, cast func(Value, Type) (Value, error)) (Value, error) {
	r, err := cast(v, t.StripDomain())
	if err != nil {
		return r, err
	}
	return r, CheckDomain(t, r, true)
}
