package parse

import (
	"bytes"
	"encoding/xml"
	"io"
)

// JUnitXML reads JUnit XML reports printed into the log (test.sh often
// cats them). Every <testcase> is a test, "classname.name" when it has a
// class; a <failure>, <error> or <skipped> child sets its status.
func JUnitXML(log []byte) *Report {
	r := &Report{}
	start := bytes.Index(log, []byte("<testsuite"))
	if start < 0 {
		return r
	}
	r.Ran = true
	dec := xml.NewDecoder(bytes.NewReader(log[start:]))
	dec.Strict = false
	dec.Entity = xml.HTMLEntity
	var cur string
	var status Status
	for {
		tok, err := dec.Token()
		if err == io.EOF || err != nil {
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "testcase":
				var class, name string
				for _, a := range t.Attr {
					switch a.Name.Local {
					case "classname":
						class = a.Value
					case "name":
						name = a.Value
					}
				}
				cur = name
				if class != "" {
					cur = class + "." + name
				}
				status = Passed
			case "failure":
				if cur != "" {
					status = Failed
				}
			case "error":
				if cur != "" {
					status = Error
				}
			case "skipped":
				if cur != "" && status == Passed {
					status = Skipped
				}
			}
		case xml.EndElement:
			if t.Name.Local == "testcase" && cur != "" {
				r.set(cur, status)
				cur = ""
			}
		}
	}
	return r
}
