package executor

import (
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/parser"
)

// TestDomainCheckNames: a CHECK without a name is named as PostgreSQL
// names it (the domain's name and _check, then _check1, ...; the name cut
// to fit in 63 bytes); a name given twice is refused.
func TestDomainCheckNames(t *testing.T) {
	long := strings.Repeat("é", 40) // 80 bytes
	for _, tc := range []struct {
		domain string
		checks []string // "" for no name
		want   []string
		err    string
	}{
		{"d", []string{"", "", "x", ""}, []string{"d_check", "d_check1", "x", "d_check2"}, ""},
		{"d", []string{"d_check1", "", ""}, []string{"d_check1", "d_check", "d_check2"}, ""},
		{long, []string{"", ""}, []string{strings.Repeat("é", 28) + "_check", strings.Repeat("é", 28) + "_check1"}, ""},
		{"d", []string{"c", "c"}, nil, `constraint "c" for domain "d" already exists`},
	} {
		d := &sqltypes.DomainType{Name: tc.domain}
		var err error
		for i, name := range tc.checks {
			if err = addDomainCheck(d, parser.NamedCheck{Name: name, SQL: "VALUE > 0"}, uint32(i), false); err != nil {
				break
			}
		}
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%s %q: %v, want %s", tc.domain, tc.checks, err, tc.err)
			}
			continue
		}
		var got []string
		for _, c := range d.Checks {
			got = append(got, c.Name)
		}
		if err != nil || strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("%s %q: %q %v, want %q", tc.domain, tc.checks, got, err, tc.want)
		}
	}
}
