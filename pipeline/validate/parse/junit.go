package parse

import (
	"bytes"
	"encoding/xml"
)

// JUnitXML reads JUnit XML reports printed into the log (test.sh often
// cats them). Every <testcase> is a test, "classname.name" when it has a
// class; a <failure>, <error> or <skipped> child sets its status.
func JUnitXML(log []byte) *Report {
	r := &Report{}
	// Several reports may follow each other (one file per test class):
	// decode from each "<testsuite" until the XML ends or breaks, then
	// look for the next one after that point.
	for off := 0; off < len(log); {
		i := bytes.Index(log[off:], []byte("<testsuite"))
		if i < 0 {
			break
		}
		r.Ran = true
		start := off + i
		used := junitDecode(log, start, r)
		if used < 1 {
			used = 1
		}
		off = start + int(used)
	}
	return r
}

// junitDecode reads test cases from one XML stream (log from start) into
// r, each placed on the line of its <testcase>, and returns how many bytes
// it consumed.
func junitDecode(log []byte, start int, r *Report) int64 {
	data := log[start:]
	line, counted := 1+bytes.Count(log[:start], []byte("\n")), 0
	at := func(off int) int { // the line of data[off], counting on from the last call
		off = min(off, len(data))
		if off > counted {
			line += bytes.Count(data[counted:off], []byte("\n"))
			counted = off
		}
		return line
	}
	defer func() { r.at = 0 }()
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = false
	dec.Entity = xml.HTMLEntity
	var cur string
	var status Status
	for {
		tok, err := dec.Token()
		if err != nil {
			return dec.InputOffset()
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "testcase":
				r.at = at(int(dec.InputOffset()))
				var class, name string
				status = Passed
				for _, a := range t.Attr {
					switch a.Name.Local {
					case "classname":
						class = a.Value
					case "name":
						name = a.Value
					case "status":
						// GoogleTest (before 1.10) lists every case its
						// filter left out as status="notrun", and CTest a
						// test the project disabled as status="disabled"
						// with no <skipped>: neither is a pass.
						if a.Value == "notrun" || a.Value == "disabled" {
							status = Skipped
						}
					}
				}
				cur = name
				if class != "" {
					cur = class + "." + name
				}
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
			if t.Name.Local == "testsuite" {
				return dec.InputOffset() // the next report starts after it
			}
		}
	}
}
