package pgerr

import (
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	cases := []struct{ in, want string }{
		{`strconv.ParseInt: parsing "7340001abc": invalid syntax`, `strconv.ParseInt: parsing "…": invalid syntax`},
		{`internal error in Statement.Execute: value 'hunter2' of type text`, `internal error in Statement.Execute: value '…' of type text`},
		{`password 'it''s' here`, `password '…' here`},
		{`body $pw$se'cr"et$pw$ and $$x$$ end`, `body $…$ and $…$ end`},
		{`row has 3 values, but the result has 12.5 columns`, `row has N values, but the result has N columns`},
		{`XX000 utf8 int4 sha256 4kB 1st`, `XX000 utf8 int4 sha256 4kB 1st`},
		{`runtime error: index out of range [7340001] with length 3`, `runtime error: index out of range [N] with length N`},
		{`unterminated 'secret`, `unterminated '…'`},
		{`unterminated $q$secret`, `unterminated $…$`},
		{`cost $1 and $2`, `cost $1 and $2`},
		{`café 42`, `café N`},
	}
	for _, c := range cases {
		if got := Redact(c.in); got != c.want {
			t.Errorf("Redact(%q) = %q, want %q", c.in, got, c.want)
		}
		for _, secret := range []string{"hunter2", "7340001", "secret", "se'cr"} {
			if strings.Contains(Redact(c.in), secret) {
				t.Errorf("Redact(%q) keeps %q", c.in, secret)
			}
		}
	}
}
