package wire

// Trial decoding: a oneOf without a discriminator is told apart by
// decoding its value once per variant, each on a Decoder forked from the
// one reading the document. Nested unions multiply those re-reads, so a
// recursive union 40 levels deep would take 2^40 decodes. Every fork is
// charged the length of the value it re-reads against a budget shared by
// all forks of one document; once it is spent, forks fail and the union is
// reported as too complex, a validation error, in bounded time.

// MinTrialBudget is the least number of bytes the trial decoders of one
// document may re-read in all; larger documents get TrialFactor times
// their length.
const MinTrialBudget = 4 << 20

// TrialFactor scales the trial budget with the document's length, so that a
// union of a few variants over a large valid value still decodes.
const TrialFactor = 64

// MsgTooComplex says a oneOf value could not be matched within the trial
// decoding budget.
const MsgTooComplex = "is too complex to match against the allowed schemas"

// Fork resets sub to decode raw, a value just read from d, as one trial of
// a oneOf variant. It charges len(raw) and the value's depth to the
// budget d shares with every trial decoder forked from it or from sub, and
// reports false without resetting sub when the budget is spent. sub must be the same Decoder for
// every variant of one union, and EndTrials(sub) must follow the last one.
func (d *Decoder) Fork(sub *Decoder, raw []byte) bool {
	if d.trialLimit == 0 {
		d.trialLimit = max(MinTrialBudget, TrialFactor*len(d.data))
	}
	// sub's count includes the trials of earlier variants and of the
	// unions nested in them.
	// A trial's errors carry JSON pointers as long as the value is deep,
	// so depth is charged too.
	depth := d.trialDepth + d.depth
	work := max(d.trialWork, sub.trialWork) + len(raw) + 1 + 8*depth
	if work > d.trialLimit {
		d.trialWork = d.trialLimit + 1
		sub.trialWork = d.trialWork
		return false
	}
	sub.Reset(raw)
	sub.trialWork, sub.trialLimit, sub.trialDepth = work, d.trialLimit, depth
	return true
}

// EndTrials takes the work of the trials run on sub back into d, and
// reports whether the budget was spent: the union's variants were then
// not all tried, and the value must be rejected with MsgTooComplex.
func (d *Decoder) EndTrials(sub *Decoder) (spent bool) {
	d.trialWork = max(d.trialWork, sub.trialWork)
	return d.trialLimit != 0 && d.trialWork > d.trialLimit
}
