package builtins

import (
	"bytes"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// call resolves and runs a function as the planner would, with untyped
// text literals for string arguments.
func call(t *testing.T, name string, args ...sqltypes.Value) (sqltypes.Value, error) {
	t.Helper()
	types := make([]sqltypes.Type, len(args))
	for i, a := range args {
		switch a.K {
		case sqltypes.KindText:
			types[i] = sqltypes.TypeUnknown
		case sqltypes.KindInt:
			types[i] = sqltypes.TypeInt4
		default:
			types[i] = sqltypes.TypeOfValue(a)
		}
	}
	res, err := Resolve(name, types)
	if err != nil {
		return sqltypes.Null, err
	}
	eval := res.Eval
	if res.Typed != nil {
		eval = res.Typed(res.ArgTypes)
	}
	if !res.CalledOnNull {
		for _, a := range args {
			if a.IsNull() {
				return sqltypes.Null, nil
			}
		}
	}
	return eval(&Context{}, args)
}

func TestStringFunctions(t *testing.T) {
	txt, i := sqltypes.NewText, func(n int64) sqltypes.Value { return sqltypes.NewInt(n) }
	tests := []struct {
		name string
		args []sqltypes.Value
		want string // text output, or "error CODE"
	}{
		{"substring", []sqltypes.Value{txt("hello"), i(2), i(3)}, "ell"},
		{"substring", []sqltypes.Value{txt("hello"), i(-2), i(4)}, "h"},
		{"substring", []sqltypes.Value{txt("hello"), i(-2), i(3)}, ""},
		{"substring", []sqltypes.Value{txt("hello"), i(2), i(-1)}, "error 22011"},
		{"substring", []sqltypes.Value{txt("Ünï"), i(2)}, "nï"},
		{"substring", []sqltypes.Value{txt("hello"), i(2147483647), i(2147483647)}, ""},
		{"split_part", []sqltypes.Value{txt("a,b,c"), txt(","), i(-2)}, "b"},
		{"split_part", []sqltypes.Value{txt("a,b,c"), txt(","), i(0)}, "error 22023"},
		{"lpad", []sqltypes.Value{txt("ab"), i(5), txt("xyz")}, "xyzab"},
		{"rpad", []sqltypes.Value{txt("Ü"), i(3), txt("é")}, "Üéé"},
		{"repeat", []sqltypes.Value{txt("abc"), i(1 << 30)}, "error 54000"},
		{"translate", []sqltypes.Value{txt("aabbcc"), txt("abc"), txt("x")}, "xx"},
		// The field limit (sqltypes.LengthLimit), at PostgreSQL 15's edges.
		{"repeat", []sqltypes.Value{txt("x"), i(1073741820)}, "error 54000"},
		{"repeat", []sqltypes.Value{txt("xx"), i(600000000)}, "error 54000"},
		{"lpad", []sqltypes.Value{txt("x"), i(268435455)}, "error 54000"},
		{"rpad", []sqltypes.Value{txt("x"), i(268435455), txt("ab")}, "error 54000"},
		{"initcap", []sqltypes.Value{txt("hELLO wORLD-x1y a_b")}, "Hello World-X1y A_B"},
		{"chr", []sqltypes.Value{i(0x10FFFF)}, "\U0010FFFF"},
		{"chr", []sqltypes.Value{i(0xD800)}, "error 54000"},
		{"format", []sqltypes.Value{txt("%s-%s")}, "error 22023"},
		{"format", []sqltypes.Value{txt("%1$s%1$I"), txt("A")}, `A"A"`},
		{"format", []sqltypes.Value{txt("%*2$s|"), txt("x"), i(3)}, "error 22023"},
		{"format", []sqltypes.Value{txt("%*s|"), txt("x"), i(3)}, "error 22P02"},
		{"format", []sqltypes.Value{txt("%*s|"), sqltypes.Null, txt("x")}, "x|"},
		{"format", []sqltypes.Value{txt("%0$s"), txt("x")}, "error 22023"},
		{"format", []sqltypes.Value{txt("%-"), txt("x")}, "error 22023"},
		{"format", []sqltypes.Value{txt("%*1s"), i(3)}, "error 22023"},
		{"format", []sqltypes.Value{txt("%I"), txt("select")}, `"select"`},
		{"format", []sqltypes.Value{txt("%I"), txt("a\"b")}, `"a""b"`},
		{"format", []sqltypes.Value{txt("%I"), txt("_ok9")}, `_ok9`},
		{"format", []sqltypes.Value{txt("%s"), sqltypes.NewBool(true)}, "t"},
		{"concat_ws", []sqltypes.Value{txt(", "), sqltypes.Null, i(1), sqltypes.NewFloat(0.5)}, "1, 0.5"},
		{"decode", []sqltypes.Value{txt(" 0a 0B "), txt("HEX")}, "\\x0a0b"},
		{"decode", []sqltypes.Value{txt("YQ==YQ=="), txt("base64")}, "\\x6161"},
		{"decode", []sqltypes.Value{txt("YQ="), txt("base64")}, "error 22023"},
		{"decode", []sqltypes.Value{txt("=YQ="), txt("base64")}, "error 22023"},
		{"decode", []sqltypes.Value{txt(`a\9`), txt("escape")}, "error 22P02"},
		{"decode", []sqltypes.Value{txt(`\\\101\`), txt("escape")}, "error 22P02"},
		{"encode", []sqltypes.Value{sqltypes.NewBytes([]byte{0, 'a', 0x80, '\\'}), txt("escape")}, `\000a\200\\`},
		{"to_hex", []sqltypes.Value{i(-255)}, "ffffff01"},
	}
	for _, tt := range tests {
		got, err := call(t, tt.name, tt.args...)
		var s string
		if err != nil {
			s = "error " + pgerr.CodeOf(err).String()
		} else {
			s = sqltypes.FormatText(got)
		}
		if s != tt.want {
			t.Errorf("%s(%v) = %q (%v), want %q", tt.name, tt.args, s, err, tt.want)
		}
	}
}

// FuzzEncodeDecode: decode never panics, and decode(encode(b)) is b in
// every format.
func FuzzEncodeDecode(f *testing.F) {
	for _, s := range []string{"", "abc", "\x00\xff\\", "YQ==YQ==", `\\\001`, " 61 6", "====", "a=b"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, format := range []string{"hex", "base64", "escape"} {
			decode(string(b), format) // must not panic
			enc, err := encode(string(b), format)
			if err != nil {
				t.Fatal(err)
			}
			back, err := decode(enc, format)
			if err != nil || !bytes.Equal(back, b) {
				t.Fatalf("%s: decode(encode(%q)) = %q, %v", format, b, back, err)
			}
		}
	})
}
