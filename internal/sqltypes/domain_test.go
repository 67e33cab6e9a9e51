package sqltypes

import (
	"encoding/json"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// testDomains makes posint (integer, CHECK VALUE > 0 as "pos"), even over
// it (NOT NULL, CHECK "odd" that fails for odd values) and ints, a domain
// over integer[]. CHECKs are "bound" by name: BindDomainCheck is the
// planner's in production.
func testDomains(t *testing.T) (posint, even, ints *DomainType) {
	old := BindDomainCheck
	BindDomainCheck = func(d *DomainType, sql string) (DomainCheckFunc, error) {
		switch sql {
		case "VALUE > 0":
			return func(v Value) (bool, error) { return v.IsNull() || v.I > 0, nil }, nil
		case "VALUE % 2 = 0":
			return func(v Value) (bool, error) { return v.IsNull() || v.I%2 == 0, nil }, nil
		case "VALUE[1] > 0":
			return func(v Value) (bool, error) { return v.IsNull() || v.Array().Elems[0].I > 0, nil }, nil
		}
		return nil, pgerr.New(pgerr.SyntaxError, "unknown check %s", sql)
	}
	t.Cleanup(func() { BindDomainCheck = old })
	posint = &DomainType{OID: 20001, ArrayOID: 20002, Name: "posint", Base: TypeInt4, Checks: []DomainCheck{{Name: "pos", SQL: "VALUE > 0"}}}
	even = &DomainType{OID: 20003, ArrayOID: 20004, Name: "even", Base: DomainOf(posint), NotNull: true,
		Checks: []DomainCheck{{Name: "odd", SQL: "VALUE % 2 = 0", NotValid: true}}}
	ints = &DomainType{OID: 20005, ArrayOID: 20006, Name: "ints", Base: ArrayOf(TypeInt4), Checks: []DomainCheck{{Name: "first", SQL: "VALUE[1] > 0"}}}
	return posint, even, ints
}

func TestDomainTypes(t *testing.T) {
	posint, even, ints := testDomains(t)
	for _, tc := range []struct {
		name               string
		t                  Type
		isDomain           bool
		oid, wire          uint32
		str, info          string
		kind               Kind
		elem               string
		parent             *DomainType
		strippedOID, udtOf uint32
	}{
		{"posint", DomainOf(posint), true, 20001, 23, "posint", "integer", KindInt, "unknown", nil, 23, 20001},
		{"even", DomainOf(even), true, 20003, 23, "even", "integer", KindInt, "unknown", posint, 23, 20003},
		{"posint[]", ArrayOf(DomainOf(posint)), false, 20002, 20002, "posint[]", "ARRAY", KindArray, "posint", nil, 1007, 20001},
		{"ints", DomainOf(ints), true, 20005, 1007, "ints", "ARRAY", KindArray, "integer", nil, 1007, 20005},
	} {
		t.Run(tc.name, func(t *testing.T) {
			typ := tc.t
			if typ.IsDomain() != tc.isDomain || typ.OID() != tc.oid || typ.WireOID() != tc.wire || typ.String() != tc.str ||
				typ.InfoSchemaName() != tc.info || typ.Kind() != tc.kind || typ.StripDomain().OID() != tc.strippedOID || typ.UDT() != tc.udtOf {
				t.Errorf("IsDomain %v OID %d WireOID %d String %q InfoSchemaName %q Kind %v stripped %d UDT %d",
					typ.IsDomain(), typ.OID(), typ.WireOID(), typ, typ.InfoSchemaName(), typ.Kind(), typ.StripDomain().OID(), typ.UDT())
			}
			if e := typ.ElemType().String(); e != tc.elem {
				t.Errorf("ElemType %q, want %q", e, tc.elem)
			}
			if tc.isDomain && typ.Domain.Parent() != tc.parent {
				t.Errorf("Parent %v, want %v", typ.Domain.Parent(), tc.parent)
			}
			// Descriptors keep the domain's OID only, for the catalog to
			// link.
			b, err := json.Marshal(typ)
			if err != nil {
				t.Fatal(err)
			}
			var back Type
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if back.Domain == nil || back.Domain.OID != typ.Domain.OID || !back.StripDomain().Same(typ.StripDomain()) || !back.Same(typ) {
				t.Errorf("JSON %s read back as %+v", b, back)
			}
		})
	}
	if ArrayOf(DomainOf(ints)).Domain != nil {
		t.Error("an array of a domain over an array kept the domain")
	}
}

func TestDomainChecks(t *testing.T) {
	posint, even, ints := testDomains(t)
	arr := func(is ...int64) Value {
		var vs []Value
		for _, i := range is {
			vs = append(vs, NewInt(i))
		}
		return NewArray1(TypeInt4, vs)
	}
	for _, tc := range []struct {
		name     string
		t        Type
		v        Value
		notValid bool
		code     pgerr.Code
		msg      string
	}{
		{"posint ok", DomainOf(posint), NewInt(3), true, pgerr.Code{}, ""},
		{"posint NULL", DomainOf(posint), Null, true, pgerr.Code{}, ""},
		{"posint bad", DomainOf(posint), NewInt(0), true, pgerr.CheckViolation, `value for domain posint violates check constraint "pos"`},
		{"even: the parent's check first, in even's name", DomainOf(even), NewInt(-1), true, pgerr.CheckViolation, `value for domain even violates check constraint "pos"`},
		{"even NULL", DomainOf(even), Null, true, pgerr.NotNullViolation, "domain even does not allow null values"},
		{"even odd", DomainOf(even), NewInt(3), true, pgerr.CheckViolation, `value for domain even violates check constraint "odd"`},
		{"even odd, stored before its NOT VALID check", DomainOf(even), NewInt(3), false, pgerr.Code{}, ""},
		{"array of posint", ArrayOf(DomainOf(posint)), arr(1, 2), true, pgerr.Code{}, ""},
		{"array of posint, bad element", ArrayOf(DomainOf(posint)), arr(1, -2), true, pgerr.CheckViolation, `value for domain posint violates check constraint "pos"`},
		{"ints", DomainOf(ints), arr(1, -2), true, pgerr.Code{}, ""},
		{"ints bad", DomainOf(ints), arr(-1, 2), true, pgerr.CheckViolation, `value for domain ints violates check constraint "first"`},
		{"no domain", TypeInt4, NewInt(-1), true, pgerr.Code{}, ""},
	} {
		err := CheckDomain(tc.t, tc.v, tc.notValid)
		if (err == nil) != (tc.code == pgerr.Code{}) || err != nil && (pgerr.CodeOf(err) != tc.code || pgerr.As(err).Message != tc.msg) {
			t.Errorf("%s: %v, want %s %q", tc.name, err, tc.code, tc.msg)
		}
	}
	// A cast to a domain is a cast to its base type, then the checks.
	if v, err := Cast(NewText("4"), DomainOf(even)); err != nil || v.I != 4 || v.K != KindInt {
		t.Errorf("'4'::even: %v %v", v, err)
	}
	if _, err := CastExplicit(NewText("-4"), DomainOf(even)); pgerr.CodeOf(err) != pgerr.CheckViolation {
		t.Errorf("'-4'::even: %v", err)
	}
	if _, err := Cast(Null, DomainOf(even)); pgerr.CodeOf(err) != pgerr.NotNullViolation {
		t.Errorf("NULL::even: %v", err)
	}
	if _, err := CastIn(NewText("{1,0}"), ArrayOf(DomainOf(posint)), true, nil); pgerr.CodeOf(err) != pgerr.CheckViolation {
		t.Errorf("'{1,0}'::posint[]: %v", err)
	}
}
