package validate

import (
	"errors"
	"io"
	"sync"
)

// taskStream is a run's task files as a tar archive made while the engine
// reads it, so tests/ and solution/ of any size cost a pipe's buffer in
// curate, not their size (ten 45 MB test files used to be held whole).
type taskStream struct {
	*io.PipeReader
	done chan error
	once sync.Once
	err  error
}

func streamTaskArchive(spec ExecSpec) *taskStream {
	pr, pw := io.Pipe()
	s := &taskStream{PipeReader: pr, done: make(chan error, 1)}
	go func() {
		err := writeTaskArchive(pw, spec)
		pw.CloseWithError(err) // nil: the reader sees the end
		s.done <- err
	}()
	return s
}

// finish stops the writer if the reader gave up and returns the archive's
// own error (a folder that cannot be packed); nil when it was whole or the
// reader stopped first (the reader's error says why).
func (s *taskStream) finish() error {
	s.once.Do(func() {
		s.PipeReader.Close()
		if err := <-s.done; !errors.Is(err, io.ErrClosedPipe) {
			s.err = err
		}
	})
	return s.err
}
