package jsonmap

// IsTable reports whether v is an array the mapping writes as a table
// [MAP-8]: at least one element, every element an object, and one order of
// the member names that agrees with every element's order [MAP-12] step 2.
// It is the one predicate of "this array is a table": the encoder's
// member tables [MAP-11] and the drafts that find tables deeper in a value
// ask it, so that they never disagree on what a table is. It takes time
// linear in the members of the elements.
func IsTable(v Value) bool {
	_, ok := tableOf(&v)
	return ok
}

// tableOf is IsTable that also returns the table's plan.
func tableOf(v *Value) (*table, bool) {
	if v.Kind != Array || len(v.Elems) == 0 {
		return nil, false
	}
	return planTable(v.Elems)
}
