package search

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestSearchFramed reports how search does when people wrap a request in
// the frames they use with an assistant: each single-clause instruction
// of GitHub's and Stripe's sets (both halves) asked as "can you …?",
// "how do I …?", "I'd like to …" and so on, and each question as "can
// you tell me …?" or "I want to know …". The task sets are written
// mostly bare, so this is the check that a polite request finds what a
// bare one does: each row gives the bare figures of the same tasks
// beside the framed ones.
func TestSearchFramed(t *testing.T) {
	instructions := []string{"can you %s?", "could you please %s?", "how do I %s?", "is there a way to %s?",
		"I'd like to %s", "we need to %s", "I need you to %s", "go ahead and %s", "%s?"}
	questions := []string{"can you tell me %s?", "I want to know %s", "do you know %s?"}
	for _, name := range []string{"github", "stripe"} {
		t.Run(name, func(t *testing.T) {
			tf := loadTasks(t, filepath.Join("tasks", name+".yaml"))
			x := openIndex(t, filepath.Join("tasks", tf.Document))
			var orders, asks []task
			for _, tk := range tf.Tasks {
				switch kind := taskForm(tk.Task); kind {
				case formInstruction:
					orders = append(orders, tk)
				case formQuestion:
					asks = append(asks, tk)
				}
			}
			report := func(frames []string, tasks []task, text func(string) string) {
				for _, frame := range frames {
					var bare, framed, ignored score
					for _, tk := range tasks {
						x.score(t, tk.Task, "", tk.Ops, &bare, &ignored, false)
						x.score(t, fmt.Sprintf(frame, text(tk.Task)), "", tk.Ops, &framed, &ignored, false)
					}
					t.Logf("  %-24q bare %v   framed %v", frame, bare, framed)
				}
			}
			t.Logf("%s: %d single-clause instructions, %d questions", name, len(orders), len(asks))
			report(instructions, orders, func(s string) string {
				return strings.ToLower(s[:1]) + strings.TrimRight(s[1:], ".!")
			})
			report(questions, asks, func(s string) string {
				return strings.ToLower(s[:1]) + strings.TrimSuffix(s[1:], "?")
			})
		})
	}
}

// taskForm is whether a task is an instruction that a frame can wrap, a
// question, or neither.
type taskFormKind int

const (
	formOther taskFormKind = iota
	formInstruction
	formQuestion
)

// taskForm classifies a task text: a question starts with a question
// word and ends with a question mark; an instruction is one clause (no
// comma, semicolon or colon) that ends with none and starts with no word
// that cannot be its verb ("our CI needs…", "the customer okayed…").
func taskForm(text string) taskFormKind {
	fields := strings.Fields(strings.ToLower(text))
	if len(fields) == 0 {
		return formOther
	}
	first := fields[0]
	if strings.HasSuffix(text, "?") {
		if strings.HasPrefix(first, "wh") || first == "how" {
			return formQuestion
		}
		return formOther
	}
	if strings.ContainsAny(text, ",;:") || notVerbs[strings.Trim(first, `"'`)] {
		return formOther
	}
	return formInstruction
}

// notVerbs are the first words of tasks that start with their subject,
// not their verb.
var notVerbs = map[string]bool{"a": true, "an": true, "the": true, "our": true, "my": true, "we": true, "i": true,
	"i'd": true, "i'm": true, "we're": true, "this": true, "that": true, "nobody": true, "someone": true,
	"everyone": true, "no": true, "is": true, "are": true, "what": true, "which": true, "who": true, "how": true}

// TestSearchMisspelled reports how search does when a request is
// misspelled: in each task of GitHub's and Stripe's sets (both halves)
// the two letters in the middle of its longest plain word (six letters
// or more) are swapped, "subscription" becoming "subscirption", beside
// the figures of the same tasks spelled right.
func TestSearchMisspelled(t *testing.T) {
	for _, name := range []string{"github", "stripe"} {
		t.Run(name, func(t *testing.T) {
			tf := loadTasks(t, filepath.Join("tasks", name+".yaml"))
			x := openIndex(t, filepath.Join("tasks", tf.Document))
			var spelled, misspelled, ignored score
			for _, tk := range tf.Tasks {
				typo, ok := misspell(tk.Task)
				if !ok {
					continue
				}
				x.score(t, tk.Task, "", tk.Ops, &spelled, &ignored, false)
				x.score(t, typo, "", tk.Ops, &misspelled, &ignored, false)
			}
			t.Logf("%s: spelled %v   misspelled %v", name, spelled, misspelled)
		})
	}
}

// misspell swaps the two letters in the middle of text's longest word of
// letters only, when it has six or more.
func misspell(text string) (string, bool) {
	fields := strings.Fields(text)
	longest := -1
	for i, f := range fields {
		if strings.Trim(f, "abcdefghijklmnopqrstuvwxyz") == "" && (longest < 0 || len(f) > len(fields[longest])) {
			longest = i
		}
	}
	if longest < 0 || len(fields[longest]) < 6 {
		return "", false
	}
	w := []byte(fields[longest])
	k := len(w) / 2
	w[k-1], w[k] = w[k], w[k-1]
	fields[longest] = string(w)
	return strings.Join(fields, " "), true
}
