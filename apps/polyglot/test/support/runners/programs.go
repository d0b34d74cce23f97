// Runs Go programs one after another in this one process, each with its own environment (see ../in-one-process.ts for
// the plan and the markers). Each program is its source with `package main` and `func main()` renamed, so that this
// program can call it; registry.go, written beside this file, maps each program's name to its function.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime/debug"
)

type program struct {
	Name string            `json:"name"`
	Env  map[string]string `json:"env"`
}

func marker(stream *os.File, event map[string]any) {
	line, _ := json.Marshal(event)
	stream.Write(append(append([]byte{0x1e}, line...), '\n'))
}

// call runs one program; a panic is its failure. A program that exits (log.Fatal) ends this process: the harness
// sees that as the failure of the program it had started, and runs the rest in a new process.
func call(name string) (failure string) {
	body, found := programs[name]
	if !found {
		return "no program named " + name
	}
	defer func() {
		if thrown := recover(); thrown != nil {
			failure = fmt.Sprintf("panic: %v\n%s", thrown, debug.Stack())
		}
	}()
	body()
	return ""
}

func main() {
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		panic(err)
	}
	var plan struct {
		Programs []program `json:"programs"`
	}
	if err := json.Unmarshal(data, &plan); err != nil {
		panic(err)
	}
	previous := map[string]string{}
	for _, each := range plan.Programs {
		for name := range previous {
			os.Unsetenv(name)
		}
		for name, value := range each.Env {
			os.Setenv(name, value)
		}
		previous = each.Env
		marker(os.Stderr, map[string]any{"start": each.Name})
		marker(os.Stdout, map[string]any{"start": each.Name})
		failure := call(each.Name)
		marker(os.Stdout, map[string]any{"end": each.Name, "ok": failure == "", "error": failure})
	}
}
