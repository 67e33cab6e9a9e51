package sqltypes

import (
	"strconv"
	"strings"
)

// ParseTypeName parses a type name in the spelling Type.String produces
// (format_type's): "integer", "character varying(20)", "character(3)",
// "numeric(10,2)", "interval day to second(3)", "bigint[]", and the
// aliases LookupType knows. It is the inverse of Type.String.
func ParseTypeName(name string) (Type, bool) {
	name = strings.ToLower(strings.TrimSpace(name))
	array := false
	for strings.HasSuffix(name, "[]") {
		array = true
		name = strings.TrimSpace(strings.TrimSuffix(name, "[]"))
	}
	t, ok := parseScalarTypeName(name)
	if !ok {
		return Type{}, false
	}
	if array {
		return ArrayOf(t), true
	}
	return t, true
}

func parseScalarTypeName(name string) (Type, bool) {
	if t, ok := parseDatetimeTypeName(name); ok {
		return t, true
	}
	base, args, hasArgs := strings.Cut(name, "(")
	base = strings.TrimSpace(base)
	if id := map[string]TypeID{"geometry": Geometry, "geography": Geography}[base]; id != 0 && hasArgs {
		inner, ok := strings.CutSuffix(strings.TrimSpace(args), ")")
		if !ok {
			return Type{}, false
		}
		t, err := GeomType(id, strings.Split(inner, ","))
		return t, err == nil
	}
	var nums []int
	if hasArgs {
		inner, ok := strings.CutSuffix(strings.TrimSpace(args), ")")
		if !ok {
			return Type{}, false
		}
		for _, p := range strings.Split(inner, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(p))
			if err != nil {
				return Type{}, false
			}
			nums = append(nums, n)
		}
	}
	if rest, ok := strings.CutPrefix(base, "interval"); ok && (rest == "" || rest[0] == ' ') {
		fields := IntervalFull
		if q := strings.Join(strings.Fields(rest), " "); q != "" {
			f, ok := IntervalFieldsByName(q)
			if !ok {
				return Type{}, false
			}
			fields = f
		}
		prec := -1
		switch len(nums) {
		case 0:
		case 1:
			if nums[0] < 0 || nums[0] > 6 {
				return Type{}, false
			}
			prec = nums[0]
		default:
			return Type{}, false
		}
		return IntervalType(fields, prec), true
	}
	switch base {
	case "character varying", "varchar", "character", "char", "bpchar":
		id := Varchar
		if base == "character" || base == "char" || base == "bpchar" {
			id = BPChar
		}
		switch len(nums) {
		case 0:
			if base == "character" || base == "char" {
				return Type{ID: BPChar, Width: 1}, true
			}
			return Type{ID: id}, true
		case 1:
			if nums[0] < 1 || nums[0] > 10485760 {
				return Type{}, false
			}
			return Type{ID: id, Width: nums[0]}, true
		}
		return Type{}, false
	case "bit", "bit varying", "varbit":
		id := Bit
		if base != "bit" {
			id = VarBit
		}
		switch len(nums) {
		case 0:
			return Type{ID: id}, true
		case 1:
			if nums[0] < 1 || nums[0] > BitMaxLength {
				return Type{}, false
			}
			return Type{ID: id, Width: nums[0]}, true
		}
		return Type{}, false
	case "numeric", "decimal", "dec":
		switch len(nums) {
		case 0:
			return TypeNumeric, true
		case 1, 2:
			p, s := nums[0], 0
			if len(nums) == 2 {
				s = nums[1]
			}
			if p < 1 || p > numericMaxPrecision || s < -1000 || s > 1000 {
				return Type{}, false
			}
			return NumericType(p, s), true
		}
		return Type{}, false
	}
	if hasArgs {
		return Type{}, false
	}
	return LookupType(base)
}

// parseDatetimeTypeName reads "timestamp(3) without time zone",
// "time(0) with time zone" and the like: format_type's spelling of a
// date/time type with a precision, whose modifier sits inside the name.
func parseDatetimeTypeName(name string) (Type, bool) {
	for _, base := range []string{"timestamp(", "time("} {
		rest, ok := strings.CutPrefix(name, base)
		if !ok {
			continue
		}
		digits, zone, ok := strings.Cut(rest, ")")
		p, err := strconv.Atoi(digits)
		if !ok || err != nil || p < 0 || p > MaxDatetimePrecision {
			return Type{}, false
		}
		var id TypeID
		switch z := strings.TrimSpace(zone); {
		case z == "" || z == "without time zone":
			id = Timestamp
			if base == "time(" {
				id = Time
			}
		case z == "with time zone":
			id = TimestampTZ
			if base == "time(" {
				id = TimeTZ
			}
		default:
			return Type{}, false
		}
		return DatetimeType(id, p), true
	}
	return Type{}, false
}
