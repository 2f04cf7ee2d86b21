/// A Trello card's labels, checklists and comments, read into pm's fields
/// (``ImportedParts``): ids derived from Trello's, so that importing the
/// board again adds nothing.
enum TrelloParts {
    /// A checklist of a card, its items in Trello's order.
    struct Checklist {
        var name: String
        var position: Double
        var items: [(id: String, name: String, done: Bool, offset: Int)]
    }

    /// A comment on a card (a `commentCard` action).
    struct CardComment {
        var id: String
        var author: String
        var at: String
        var text: String
        var offset: Int
    }

    /// The parts of `card` (Trello id `id`), its labels read already.
    static func read(of card: LocatedJSON, id: String, labels: [(String, Int)], board: TrelloBoard) throws -> ImportedParts {
        var parts = ImportedParts()
        for (name, offset) in labels { try parts.addLabel(name, at: offset) }
        // Several checklists are one in pm: each item then says which it was
        // in, the same whoever imports (data, not a sentence in the reader's
        // language), so that two teammates' imports of one file agree.
        let checklists = board.checklists[id, default: []]
        for checklist in checklists {
            let prefix = checklists.count > 1 && !checklist.name.isEmpty ? checklist.name + ": " : ""
            for item in checklist.items {
                try parts.addItem(sourceID: item.id, text: prefix + item.name, done: item.done, at: item.offset)
            }
        }
        for comment in board.comments[id, default: []] {
            try parts.addComment(
                sourceID: comment.id, by: comment.author, at: comment.at, text: comment.text, offset: comment.offset)
        }
        parts.keepNewestComments()
        return parts
    }

    /// Each card's checklists, by `pos` (ties as in the file), each with its items by `pos`.
    static func checklists(_ found: [LocatedJSON]) throws -> [String: [Checklist]] {
        var result: [String: [(Int, Checklist)]] = [:]
        for (order, checklist) in found.enumerated() {
            guard let card = try checklist.string("idCard") else { continue }
            var items: [(Double, Int, (id: String, name: String, done: Bool, offset: Int))] = []
            for (index, item) in try checklist.array("checkItems").enumerated() {
                guard let itemID = try item.string("id"), !itemID.isEmpty else { throw item.wrong("id") }
                let done = try item.string("state") == "complete"
                let name = try item.string("name") ?? ""
                items.append((try TrelloImport.position(item), index, (itemID, name, done, item["name"]?.offset ?? item.offset)))
            }
            items.sort { ($0.0, $0.1) < ($1.0, $1.1) }
            let read = Checklist(
                name: try checklist.string("name") ?? "", position: try TrelloImport.position(checklist),
                items: items.map(\.2))
            result[card, default: []].append((order, read))
        }
        return result.mapValues { lists in
            lists.sorted { ($0.1.position, $0.0) < ($1.1.position, $1.0) }.map(\.1)
        }
    }

    /// Each card's comments: by its author's Trello user name (else full
    /// name, else the importer), at its time (else the time in its id).
    static func comments(_ actions: [LocatedJSON], members: [String: String], user: String) throws -> [String: [CardComment]] {
        var found: [String: [CardComment]] = [:]
        for action in actions where try action.string("type") == "commentCard" {
            guard let data = action["data"], let card = try data["card"]?.string("id"), let text = try data.string("text"),
                let id = try action.string("id"), !id.isEmpty
            else { continue }
            var author = try action.string("idMemberCreator").flatMap { members[$0] } ?? user
            if let creator = action["memberCreator"], let name = try creator.string("username") ?? creator.string("fullName") {
                author = name
            }
            let at: String
            if let date = try action.string("date") {
                guard let time = Timestamp.parse(date, zone: .utc), ImportRules.inRange(time) else {
                    throw ImportFailure(offset: action["date"]?.offset ?? action.offset, problem: .badDate(date))
                }
                at = Timestamp.string(from: time)
            } else if let made = ImportRules.trelloCreated(id) {
                at = made
            } else {
                continue
            }
            let offset = data["text"]?.offset ?? action.offset
            found[card, default: []].append(CardComment(id: id, author: author, at: at, text: text, offset: offset))
        }
        return found
    }
}
