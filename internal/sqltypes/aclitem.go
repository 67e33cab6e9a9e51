package sqltypes

import (
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// aclitem, one entry of an access control list (pg_class.relacl and the
// other catalog ACL columns, acldefault, makeaclitem): a grantee (PUBLIC
// or a role), the privileges it holds, which of them it may grant on, and
// the role that granted them.
//
// Representation: KindText, S = the item's output text
// ("grantee=privileges/grantor", the names quoted as aclitemout's putid
// quotes them). PostgreSQL stores the roles' OIDs and prints their names;
// zproxy resolves the names when the value is made (the input function
// needs the catalog: a role must exist, as for the reg* types), so that
// printing a value needs no catalog. aclitem is not a column type of user
// tables, so no value outlives the statement that made it. The canonical
// text makes text equality aclitem's = (same grantee, grantor and
// privileges); the functions that need the OIDs (aclexplode,
// hash_aclitem) look the names up again.

// TypeACLItem is aclitem.
var TypeACLItem = Type{ID: ACLItem}

// ACLRightsLetters are the privilege letters of aclitem's text, bit i of
// an ACLSpec's Privs the letter at i (PostgreSQL's ACL_ALL_RIGHTS_STR and
// AclMode bits).
const ACLRightsLetters = "arwdDxtXUCTcsA"

// aclRightNames are the privileges' names by bit, as aclexplode reports
// them and makeaclitem reads them.
var aclRightNames = [len(ACLRightsLetters)]string{
	"INSERT", "SELECT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER",
	"EXECUTE", "USAGE", "CREATE", "TEMPORARY", "CONNECT", "SET", "ALTER SYSTEM",
}

// ACLRightName is the name of privilege bit i (aclexplode's
// privilege_type).
func ACLRightName(i int) string { return aclRightNames[i] }

// ParseACLRight is makeaclitem's reading of a privilege name
// (PostgreSQL 15's convert_priv_string): one name, case-insensitive, TEMP
// for TEMPORARY; RULE is the privilege PostgreSQL dropped, no bits.
func ParseACLRight(s string) (uint16, error) {
	u := strings.ToUpper(s)
	switch u {
	case "RULE":
		return 0, nil
	case "TEMP":
		u = "TEMPORARY"
	}
	for i, n := range aclRightNames {
		if n == u && asciiOnly(s) {
			return 1 << i, nil
		}
	}
	return 0, pgerr.New(pgerr.InvalidParameterValue, "unrecognized privilege type: \"%s\"", s)
}

// asciiOnly reports whether s has no byte above 0x7f (pg_strcasecmp folds
// ASCII letters only, so "ſelect" is no privilege).
func asciiOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// ACLSpec is an aclitem's parts by name: Grantee "" is PUBLIC. Privs and
// GrantOptions hold one bit per privilege (ACLRightsLetters).
type ACLSpec struct {
	Grantee, Grantor string
	// NoGrantor is set when the text named no grantor (aclitemin then
	// takes the bootstrap superuser, with a warning).
	NoGrantor    bool
	Privs        uint16
	GrantOptions uint16
}

// String is the item's text as aclitemout prints it.
func (a ACLSpec) String() string {
	var b strings.Builder
	b.WriteString(QuoteACLName(a.Grantee))
	b.WriteByte('=')
	for i := 0; i < len(ACLRightsLetters); i++ {
		if a.Privs&(1<<i) != 0 {
			b.WriteByte(ACLRightsLetters[i])
		}
		if a.GrantOptions&(1<<i) != 0 {
			b.WriteByte('*')
		}
	}
	b.WriteByte('/')
	b.WriteString(QuoteACLName(a.Grantor))
	return b.String()
}

// PrivsWord is the item's privileges and grant options as PostgreSQL
// keeps them in one word (ai_privs: the grant options in the high half),
// which hash_aclitem adds up.
func (a ACLSpec) PrivsWord() uint32 { return uint32(a.Privs) | uint32(a.GrantOptions)<<16 }

// QuoteACLName writes a role name as aclitemout's putid does: bare when
// it is ASCII letters, digits and underscores only, else in double
// quotes with its quotes doubled. (putid asks isalnum of each byte, which
// in PostgreSQL's UTF-8 locales is false for every byte of a non-ASCII
// character.)
func QuoteACLName(name string) string {
	plain := true
	for i := 0; i < len(name); i++ {
		if c := name[i]; !(c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			plain = false
			break
		}
	}
	if plain {
		return name
	}
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// ParseACLItem reads aclitem's text as aclitemin does (aclparse), without
// looking the roles up: [group|user] grantee=privileges[/grantor], blanks
// around the names, names bare (letters, digits, underscores) or quoted.
func ParseACLItem(s string) (ACLSpec, error) {
	bad := func(msg string) (ACLSpec, error) {
		return ACLSpec{}, pgerr.New(pgerr.InvalidTextRepresentation, "%s", msg)
	}
	var a ACLSpec
	rest, name, err := aclName(s)
	if err != nil {
		return a, err
	}
	if !strings.HasPrefix(rest, "=") {
		// A key word, not a name.
		if name != "group" && name != "user" {
			return ACLSpec{}, pgerr.New(pgerr.InvalidTextRepresentation, "unrecognized key word: \"%s\"", name).
				WithHint("ACL key word must be \"group\" or \"user\".")
		}
		if rest, name, err = aclName(rest); err != nil {
			return a, err
		}
		if name == "" {
			return ACLSpec{}, pgerr.New(pgerr.InvalidTextRepresentation, "missing name").
				WithHint("A name must follow the \"group\" or \"user\" key word.")
		}
	}
	if !strings.HasPrefix(rest, "=") {
		return bad("missing \"=\" sign")
	}
	a.Grantee = name
	var read uint16
	i := 1
	for ; i < len(rest) && (isASCIIAlpha(rest[i]) || rest[i] == '*'); i++ {
		c := rest[i]
		switch {
		case c == '*':
			a.GrantOptions |= read
			continue
		case c == 'R': // the RULE privilege PostgreSQL dropped
			read = 0
			continue
		}
		k := strings.IndexByte(ACLRightsLetters, c)
		if k < 0 {
			return bad("invalid mode character: must be one of \"" + ACLRightsLetters + "\"")
		}
		read = 1 << k
		a.Privs |= read
	}
	rest = rest[i:]
	if strings.HasPrefix(rest, "/") {
		if rest, name, err = aclName(rest[1:]); err != nil {
			return a, err
		}
		if name == "" {
			return bad("a name must follow the \"/\" sign")
		}
		a.Grantor = name
	} else {
		a.NoGrantor = true
	}
	if strings.TrimLeft(rest, aclSpace) != "" {
		return bad("extra garbage at the end of the ACL specification")
	}
	return a, nil
}

// aclSpace is C's isspace.
const aclSpace = " \t\n\v\f\r"

// aclName is aclparse's getid: blanks, then a name of letters, digits and
// underscores, or quoted (a doubled quote is one), then blanks. It
// returns what follows and the name ("" when there is none).
func aclName(s string) (rest, name string, err error) {
	s = strings.TrimLeft(s, aclSpace)
	var b []byte
	quoted := false
	i := 0
	for ; i < len(s); i++ {
		c := s[i]
		if !quoted && !(c == '_' || c == '"' || c >= '0' && c <= '9' || isASCIIAlpha(c)) {
			break
		}
		if c == '"' {
			if i+1 >= len(s) || s[i+1] != '"' {
				quoted = !quoted
				continue
			}
			i++ // a doubled quote: one quote in the name
		}
		if len(b) >= NameDataLen-1 {
			return "", "", pgerr.New(pgerr.NameTooLong, "identifier too long").
				WithDetail("Identifier must be less than %d characters.", NameDataLen)
		}
		b = append(b, c)
	}
	return strings.TrimLeft(s[i:], aclSpace), string(b), nil
}

func isASCIIAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
