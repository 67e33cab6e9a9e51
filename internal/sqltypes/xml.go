package sqltypes

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// xml is PostgreSQL's xml type: the text as written, checked to be
// well-formed XML content (a sequence of elements, character data,
// comments and processing instructions, after an optional XML
// declaration) or, under xmloption document, a well-formed document (one
// root element). It has no comparison operators. The check uses
// encoding/xml's strict decoder; PostgreSQL's libxml2 DETAIL lines (line
// and column of the fault) are not reproduced.

// NewXML returns an xml value of already checked text.
func NewXML(s string) Value { return Value{K: KindXML, S: s} }

// ParseXML is xml_in: s as an xml value, checked as a document when
// document is set (xmloption document), else as content.
func ParseXML(s string, document bool) (Value, error) {
	if document {
		if !XMLWellFormedDocument(s) {
			return Null, pgerr.New(pgerr.InvalidXMLDocument, "invalid XML document")
		}
	} else if !XMLWellFormedContent(s) {
		return Null, pgerr.New(pgerr.InvalidXMLContent, "invalid XML content")
	}
	return NewXML(s), nil
}

// xmlDecl splits an XML declaration (<?xml ...?>) off the start of s: the
// declaration's pseudo-attributes and the rest. ok is false when s has
// none; err reports a malformed one.
func xmlDecl(s string) (attrs map[string]string, rest string, ok bool, err error) {
	if !strings.HasPrefix(s, "<?xml") || len(s) > 5 && !isXMLSpace(s[5]) && !strings.HasPrefix(s[5:], "?>") {
		return nil, s, false, nil
	}
	end := strings.Index(s, "?>")
	if end < 0 {
		return nil, s, true, errors.New("unterminated XML declaration")
	}
	attrs = map[string]string{}
	body := s[5:end]
	for {
		body = strings.TrimLeft(body, " \t\r\n")
		if body == "" {
			break
		}
		eq := strings.IndexByte(body, '=')
		if eq < 0 {
			return nil, s, true, errors.New("malformed XML declaration")
		}
		name := strings.TrimRight(body[:eq], " \t\r\n")
		body = strings.TrimLeft(body[eq+1:], " \t\r\n")
		if body == "" || body[0] != '"' && body[0] != '\'' {
			return nil, s, true, errors.New("malformed XML declaration")
		}
		q := strings.IndexByte(body[1:], body[0])
		if q < 0 {
			return nil, s, true, errors.New("malformed XML declaration")
		}
		attrs[name] = body[1 : q+1]
		body = body[q+2:]
	}
	// The pseudo-attributes come in this order, version first (XML 1.0,
	// production XMLDecl); standalone is yes or no.
	if _, has := attrs["version"]; !has && len(attrs) > 0 {
		return nil, s, true, errors.New("malformed XML declaration")
	}
	for k, v := range attrs {
		switch k {
		case "version", "encoding":
		case "standalone":
			if v != "yes" && v != "no" {
				return nil, s, true, errors.New("malformed XML declaration")
			}
		default:
			return nil, s, true, errors.New("malformed XML declaration")
		}
	}
	return attrs, s[end+2:], true, nil
}

func isXMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// xmlTokens decodes s strictly and returns its top-level token kinds: 'e'
// for an element, 't' for non-blank character data, 'd' for a DOCTYPE,
// 'c' for comments and processing instructions. ok is false when s is not
// well-formed.
func xmlTokens(s string) (kinds []byte, ok bool) {
	d := xml.NewDecoder(strings.NewReader(s))
	d.Strict = true
	depth := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return kinds, depth == 0
		}
		if err != nil {
			return nil, false
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				kinds = append(kinds, 'e')
			}
			depth++
		case xml.EndElement:
			depth--
			if depth < 0 {
				return nil, false
			}
		case xml.CharData:
			if depth == 0 && strings.TrimLeft(string(t), " \t\r\n") != "" {
				kinds = append(kinds, 't')
			}
		case xml.Directive:
			if depth > 0 || !strings.HasPrefix(string(t), "DOCTYPE") {
				return nil, false
			}
			kinds = append(kinds, 'd')
		case xml.ProcInst:
			if t.Target == "xml" || strings.EqualFold(t.Target, "xml") {
				return nil, false // a declaration past the start
			}
			if depth == 0 {
				kinds = append(kinds, 'c')
			}
		case xml.Comment:
			if strings.Contains(string(t), "--") || strings.HasSuffix(string(t), "-") {
				return nil, false
			}
			if depth == 0 {
				kinds = append(kinds, 'c')
			}
		}
	}
}

// xmlTopLevel is xmlTokens of s after its XML declaration, if any; ok is
// false when the declaration or the rest is malformed.
func xmlTopLevel(s string) (kinds []byte, ok bool) {
	_, rest, _, err := xmlDecl(s)
	if err != nil {
		return nil, false
	}
	return xmlTokens(rest)
}

// XMLWellFormedContent reports whether s is well-formed XML content, as
// xml_is_well_formed_content answers.
func XMLWellFormedContent(s string) bool {
	kinds, ok := xmlTopLevel(s)
	if !ok {
		return false
	}
	for i, k := range kinds {
		// A DOCTYPE is allowed only where a document's prolog has it,
		// and then what follows must be a document.
		if k == 'd' {
			return i == indexNot(kinds, 'c') && XMLWellFormedDocument(s)
		}
	}
	return true
}

func indexNot(kinds []byte, c byte) int {
	for i, k := range kinds {
		if k != c {
			return i
		}
	}
	return len(kinds)
}

// XMLWellFormedDocument reports whether s is a well-formed XML document:
// a prolog (declaration, comments, processing instructions, a DOCTYPE),
// one root element, then comments and processing instructions only.
func XMLWellFormedDocument(s string) bool {
	kinds, ok := xmlTopLevel(s)
	if !ok {
		return false
	}
	roots, doctype := 0, false
	for _, k := range kinds {
		switch k {
		case 'e':
			roots++
		case 't':
			return false
		case 'd':
			if doctype || roots > 0 {
				return false
			}
			doctype = true
		}
	}
	return roots == 1
}

// AppendXML appends xml_out's text of an xml value: its declaration, if
// any, is dropped unless it says something beyond version 1.0 (another
// version, or standalone), which is then printed in PostgreSQL's form.
func AppendXML(buf []byte, s string) []byte {
	version, standalone, rest := XMLDeclParts(s)
	return append(AppendXMLDecl(buf, version, standalone), rest...)
}

// XMLDeclParts splits an xml value's declaration off: its version ("" for
// none), standalone (1 yes, 0 no, -1 not given) and the text after it.
func XMLDeclParts(s string) (version string, standalone int, rest string) {
	attrs, rest, ok, err := xmlDecl(s)
	if !ok || err != nil {
		return "", -1, s
	}
	standalone = -1
	switch attrs["standalone"] {
	case "yes":
		standalone = 1
	case "no":
		standalone = 0
	}
	return attrs["version"], standalone, rest
}

// AppendXMLDecl appends PostgreSQL's print_xml_decl: a declaration only
// when the version is not 1.0 or standalone is given.
func AppendXMLDecl(buf []byte, version string, standalone int) []byte {
	if (version == "" || version == "1.0") && standalone < 0 {
		return buf
	}
	if version == "" {
		version = "1.0"
	}
	buf = append(buf, `<?xml version="`...)
	buf = append(buf, version...)
	buf = append(buf, '"')
	switch standalone {
	case 1:
		buf = append(buf, ` standalone="yes"`...)
	case 0:
		buf = append(buf, ` standalone="no"`...)
	}
	return append(buf, "?>"...)
}

// XMLComment is xmlcomment: text as an XML comment, refused (2200S) when
// it holds "--" or ends with "-".
func XMLComment(s string) (Value, error) {
	if strings.Contains(s, "--") || strings.HasSuffix(s, "-") {
		return Null, pgerr.New(pgerr.InvalidXMLComment, "invalid XML comment")
	}
	return NewXML("<!--" + s + "-->"), nil
}

// XMLName is map_sql_identifier_to_xml_name (not fully escaped, periods
// kept): an SQL identifier as an XML name, a character no XML name may
// hold there written _xHHHH_, as is the "_" of a leading "_x" and a
// leading ":".
func XMLName(ident string) string {
	var b strings.Builder
	for i, r := range ident {
		switch {
		case r == ':' && i == 0,
			r == '_' && strings.HasPrefix(ident[i:], "_x"),
			i == 0 && !xmlNameStart(r),
			i > 0 && !xmlNameStart(r) && !xmlNameChar(r):
			if r > 0xFFFF {
				fmt.Fprintf(&b, "_x%08X_", r)
			} else {
				fmt.Fprintf(&b, "_x%04X_", r)
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// xmlNameStart and xmlNameChar are libxml2's xmlIsNameStartChar and
// xmlIsNameChar as PostgreSQL uses them (XML 1.0's letters, "_" and ":";
// then digits, ".", "-" and combining marks too).
func xmlNameStart(r rune) bool {
	return r == '_' || r == ':' || unicode.IsLetter(r)
}

func xmlNameChar(r rune) bool {
	return r == '.' || r == '-' || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) || r == 0xB7
}

// XMLEscapeContent is escape_xml: &, <, > and carriage returns escaped,
// as XMLELEMENT and XMLFOREST write a non-xml value.
func XMLEscapeContent(s string) string {
	return xmlContentEscaper.Replace(s)
}

// XMLEscapeAttr escapes an attribute value as libxml2's attribute writer
// does (quotes and the white-space controls too).
func XMLEscapeAttr(s string) string {
	return xmlAttrEscaper.Replace(s)
}

var (
	xmlContentEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\r", "&#x0d;")
	xmlAttrEscaper    = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "\n", "&#10;", "\r", "&#13;", "\t", "&#9;")
)

// XMLValueText is map_sql_value_to_xml_value for the types zproxy maps:
// an xml value as it is, others by their text output (a date in ISO
// form), escaped for content when escape is set. ok is false for types
// whose XML Schema mapping differs from their text output (timestamps,
// times, intervals, bytea, arrays, records ...).
func XMLValueText(t Type, v Value, escape bool) (string, bool) {
	switch v.K {
	case KindXML:
		return v.S, true
	case KindText, KindBPChar, KindCitext, KindFloat, KindNumeric, KindBool, KindUUID, KindJSON, KindJSONB, KindMoney, KindLSN, KindXID, KindXID8, KindTID, KindEnum, KindBit:
	case KindInt:
		if t.ID.System() && t.ID != Oid {
			return "", false // reg* names
		}
	case KindDate:
		if !IsFiniteDate(v.I) {
			return "", false
		}
	default:
		return "", false
	}
	s := FormatText(v)
	if v.K == KindBool {
		s = boolText(v.I != 0)
	}
	if escape {
		s = XMLEscapeContent(s)
	}
	return s, true
}
