import PMCore
import PMTestSupport
import Testing

/// The ranges a sync state keeps of the segments it has read.
@Suite struct NumberSetTests {
    @Test func insertsMergeIntoRanges() {
        var set = NumberSet()
        for number in [5, 1, 3, 2, 9, 4, 10, 0, -3, 4] { set.insert(number) }
        #expect(set.text == "1-5,9-10")
        #expect(set.contains(3) && set.contains(10) && !set.contains(6) && !set.contains(0))
        #expect(set.max == 10)
    }

    @Test func agreesWithASetOfNumbers() {
        var random = SeededGenerator(seed: 7)
        for _ in 0..<200 {
            let numbers = (0..<Int.random(in: 0...30, using: &random)).map { _ in Int.random(in: 1...40, using: &random) }
            let set = NumberSet(numbers)
            for probe in 0...41 { #expect(set.contains(probe) == numbers.contains(probe)) }
            #expect(NumberSet(text: set.text) == set)
            let other = NumberSet((0..<10).map { _ in Int.random(in: 1...40, using: &random) })
            let both = set.intersection(other)
            for probe in 1...40 { #expect(both.contains(probe) == (set.contains(probe) && other.contains(probe))) }
            #expect(both.isSubset(of: set) && both.isSubset(of: other))
            #expect(set.isSubset(of: other) == Set(numbers).isSubset(of: Set((1...40).filter(other.contains))))
        }
    }

    /// A state file is pm's own, but a damaged one is refused, never half-read.
    @Test func refusesWhatIsNotItsForm() {
        for text in ["0", "3-1", "1-2,2-3", "1-2,3", "5,1", "a", "1-", "-1", "1,,2", "1-2-3"] {
            #expect(NumberSet(text: text) == nil, "\(text)")
        }
        #expect(NumberSet(text: "")?.isEmpty == true)
        #expect(NumberSet(text: "1-2,4")?.text == "1-2,4")
    }
}
