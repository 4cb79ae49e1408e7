package cli

import (
	"encoding/json"
	"io"
)

// printObject writes the answer object; on failure the object carries the
// error, so a calling model always reads one JSON object.
func printObject(w io.Writer, v any, err error) error {
	if err != nil {
		v = map[string]string{"error": err.Error()}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if encErr := enc.Encode(v); encErr != nil && err == nil {
		return encErr
	}
	return err
}

// printPartial is printObject for a verb that may have done part of its
// work: an answer that came with an error is printed as it is (its error
// field says what failed), and the error still ends the command.
func printPartial(w io.Writer, v any, err error) error {
	if err != nil && v != nil {
		printObject(w, v, nil)
		return err
	}
	return printObject(w, v, err)
}
