package parse

import "regexp"

var (
	// Surefire 3: "[ERROR] com.x.FooTest.testBar -- Time elapsed: 0.01 s <<< FAILURE!"
	mavenMethodNew = regexp.MustCompile(`^\[(?:ERROR|INFO|WARNING)\]\s+([\w.$]+)\.([\w$]+)\s+--\s+Time elapsed:.*<<<\s+(FAILURE|ERROR)!`)
	// Surefire 2: "[ERROR] testBar(com.x.FooTest)  Time elapsed: 0.01 s  <<< FAILURE!",
	// without the level prefix before Maven 3.x logged through SLF4J
	// (Surefire 2.12.4, Maven's default binding for projects that pin none).
	mavenMethodOld = regexp.MustCompile(`^(?:\[(?:ERROR|INFO|WARNING)\]\s+)?([\w$]+)\(([\w.$]+)\)\s+Time elapsed:.*<<<\s+(FAILURE|ERROR)!`)
	// "[INFO] Tests run: 3, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.1 s - in com.x.FooTest"
	mavenClass = regexp.MustCompile(`Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+).*?(?:-- in|- in)\s+([\w.$]+)`)
	// The test sources failing to compile is a run whose tests all fail
	// (they call what the fix adds).
	mavenRan = regexp.MustCompile(`T E S T S|Tests run: \d+|^> Task :\S*test\b|:testCompile \(.*(?:Compilation failure|COMPILATION ERROR)|^> Task :\S*compileTest(?:Java|Kotlin) FAILED`)
)

// Maven reads a Maven or Gradle test run. Surefire's XML reports (test.sh
// appends them to the log) name every method, so when the log has them
// they are the result: "com.x.FooTest.testBar". Without them it falls
// back to the console, which names only failing methods, so a class is
// one test id ("com.x.FooTest") that fails when any of its methods does,
// and failing methods are listed too.
func Maven(log []byte) *Report {
	console := mavenConsole(log)
	if !console.Ran {
		return console
	}
	if xml := JUnitXML(log); len(xml.Tests) > 0 {
		return xml
	}
	return console
}

func mavenConsole(log []byte) *Report {
	r := &Report{}
	lines(r, log, func(l string) {
		if mavenRan.MatchString(l) {
			r.Ran = true
		}
		if m := mavenMethodNew.FindStringSubmatch(l); m != nil {
			r.set(m[1]+"."+m[2], mavenStatus(m[3]))
			return
		}
		if m := mavenMethodOld.FindStringSubmatch(l); m != nil {
			r.set(m[2]+"."+m[1], mavenStatus(m[3]))
			return
		}
		if m := mavenClass.FindStringSubmatch(l); m != nil {
			switch {
			case m[3] != "0":
				r.set(m[5], Error)
			case m[2] != "0":
				r.set(m[5], Failed)
			case m[1] != "0" && m[1] == m[4]:
				r.set(m[5], Skipped)
			default:
				r.set(m[5], Passed)
			}
		}
	})
	return r
}

func mavenStatus(word string) Status {
	if word == "ERROR" {
		return Error
	}
	return Failed
}
