/// A Trello board export (the board menu's "Print, export and share" →
/// "Export as JSON"): its open lists and cards, in board order.
///
/// Lists become columns by name in any shipped language, or as `--map`
/// says; a card keeps its name, description, due date, members, labels,
/// checklists (one checklist in pm, in Trello's order) and comments (with
/// their authors and dates); its link and the members pm cannot name go in
/// the body, readable. Archived lists and cards are left out unless asked for.
public enum TrelloImport: BoardImporter {
    public static func read(_ bytes: [UInt8], options: ImportOptions) throws -> ImportReading {
        let root = try LocatedJSON.parse(bytes)
        guard root.members != nil, root["cards"]?.elements != nil, root["lists"]?.elements != nil else {
            throw ImportFailure(offset: root.offset, problem: .notA(.trello))
        }
        var reading = ImportReading()
        let lists = try readLists(root.array("lists"), options: options, into: &reading)
        let members = try names(root.array("members"))
        let labels = try labelNames(root.array("labels"))
        let checklists = try TrelloParts.checklists(root.array("checklists"))
        let comments = try TrelloParts.comments(root.array("actions"), members: members, user: options.user)
        let board = TrelloBoard(lists: lists, members: members, labels: labels, checklists: checklists, comments: comments)
        var cards: [PlacedCard] = []
        var seen = Set<String>()
        for card in try root.array("cards") {
            let placed = try readCard(card, on: board, options: options, seen: &seen, before: cards.count, into: &reading)
            if let placed { cards.append(placed) }
        }
        // Board order: lists left to right, cards top to bottom (ties as in the file).
        let ordered = cards.enumerated().sorted { a, b in
            (a.element.list.index, a.element.position, a.offset) < (b.element.list.index, b.element.position, b.offset)
        }
        reading.cards = ordered.map(\.element.card)
        return reading
    }

    /// The lists by id, in board order (`pos`), each with the column it becomes.
    private static func readLists(
        _ found: [LocatedJSON], options: ImportOptions, into reading: inout ImportReading
    ) throws -> [String: TrelloList] {
        var read: [(id: String, name: String, position: Double, closed: Bool)] = []
        var ids = Set<String>()
        for list in found {
            guard let id = try list.string("id"), ids.insert(id).inserted else { throw list.wrong("id") }
            read.append((id, try list.string("name") ?? "", try position(list), try list.flag("closed")))
        }
        var lists: [String: TrelloList] = [:]
        for (index, list) in read.enumerated().sorted(by: { ($0.element.position, $0.offset) < ($1.element.position, $1.offset) })
            .map(\.element).enumerated()
        {
            let (state, how) = options.listState(list.name)
            lists[list.id] = TrelloList(index: index, position: list.position, closed: list.closed)
            reading.lists.append(ListMapping(name: list.name, state: state, how: how, archived: list.closed))
        }
        return lists
    }

    /// A card, with its list and its place there; nil for an archived card
    /// left out (counted). `before`: the cards read so far, for the limit.
    private static func readCard(
        _ card: LocatedJSON, on board: TrelloBoard, options: ImportOptions, seen: inout Set<String>, before: Int,
        into reading: inout ImportReading
    ) throws -> PlacedCard? {
        guard let id = try card.string("id"), !id.isEmpty else { throw card.wrong("id") }
        guard seen.insert(id).inserted else { throw ImportFailure(offset: card.offset, problem: .duplicateID(id)) }
        guard let listID = try card.string("idList"), let list = board.lists[listID] else { throw card.wrong("idList") }
        let archived = try list.closed || card.flag("closed")
        if archived && !options.includeAll {
            reading.leftOut += 1
            return nil
        }
        guard reading.cards.count + before < ImportRules.cardLimit else {
            throw ImportFailure(offset: card.offset, problem: .tooManyCards(ImportRules.cardLimit))
        }
        let (title, whole) = try ImportRules.title(card.string("name") ?? "", at: card["name"]?.offset ?? card.offset)
        let due = try dueDate(of: card, zone: options.zone)
        let (assignees, others) = ImportRules.names(try memberNames(of: card, members: board.members))
        let parts = try bodyParts(of: card, whole: whole, others: others, words: options.words)
        let (body, cut) = ImportRules.body(parts)
        var imported = ImportedCard(
            sourceID: id, title: title, body: body, state: reading.lists[list.index].state, due: due, assignees: assignees,
            offset: card.offset)
        imported.parts = try TrelloParts.read(of: card, id: id, labels: labels(of: card, names: board.labels), board: board)
        if reading.note(imported.parts) || whole != nil || cut { reading.shortened += 1 }
        // The description, and (each only when there is one) what pm wrote under its headings.
        if parts.count > 1 { reading.withHeadings += 1 }
        reading.lists[list.index].cards += 1
        imported.created = ImportRules.trelloCreated(id)
        return (list, try position(card), imported)
    }

    /// A card's due date as the reader's calendar day; nil when it has none.
    private static func dueDate(of card: LocatedJSON, zone: Zone) throws -> CivilDate? {
        guard let text = try card.string("due") else { return nil }
        guard let day = ImportRules.day(ofTimestamp: text, zone: zone) else {
            throw ImportFailure(offset: card["due"]?.offset ?? card.offset, problem: .badDate(text))
        }
        return day
    }

    /// The names of a card's members the board knows.
    private static func memberNames(of card: LocatedJSON, members: [String: String]) throws -> [String] {
        var memberNames: [String] = []
        for member in try card.array("idMembers") {
            guard case .string(let memberID) = member.value else { throw member.wrong("idMembers") }
            if let name = members[memberID] { memberNames.append(name) }
        }
        return memberNames
    }

    /// A card's body in parts: the whole title when cut, the description,
    /// then the members pm cannot name and its link.
    private static func bodyParts(of card: LocatedJSON, whole: String?, others: [String], words: ImportWords) throws
        -> [String]
    {
        var parts = [try ImportRules.bodyText(card.string("desc") ?? "", at: card["desc"]?.offset ?? card.offset)]
        if let whole { parts.insert(words.fullTitle + words.separator + whole, at: 0) }
        if !others.isEmpty {
            parts.append(
                words.members + words.separator + (try ImportRules.bodyText(others.joined(separator: ", "), at: card.offset)))
        }
        if let link = try card.string("shortUrl") ?? card.string("url") {
            parts.append(words.link + words.separator + (try ImportRules.bodyText(link, at: card.offset)))
        }
        return parts
    }

    /// A card's label names, each with where it is read: by the board's
    /// label ids, else as the card gives them (a label without a name is
    /// called by its colour, as Trello shows it).
    private static func labels(of card: LocatedJSON, names: [String: String]) throws -> [(String, Int)] {
        var cardLabels: [(String, Int)] = []
        for label in try card.array("idLabels") {
            if case .string(let labelID) = label.value, let name = names[labelID] { cardLabels.append((name, label.offset)) }
        }
        if cardLabels.isEmpty {
            for label in try card.array("labels") {
                if let name = try labelName(label) { cardLabels.append((name, label.offset)) }
            }
        }
        return cardLabels
    }

    /// A label's name, else its colour's; nil for neither.
    private static func labelName(_ label: LocatedJSON) throws -> String? {
        if let name = try label.string("name"), !name.isEmpty { return name }
        if let color = try label.string("color"), !color.isEmpty { return color }
        return nil
    }

    /// A list's, card's, checklist's or item's `pos` (a number; absent: 0).
    static func position(_ value: LocatedJSON) throws -> Double {
        guard let member = value["pos"] else { return 0 }
        guard case .number(let text) = member.value, let number = Double(text) else { throw member.wrong("pos") }
        return number
    }

    /// Member ids to user names (`username`, else `fullName`).
    private static func names(_ members: [LocatedJSON]) throws -> [String: String] {
        var result: [String: String] = [:]
        for member in members {
            guard let id = try member.string("id") else { continue }
            if let name = try member.string("username") ?? member.string("fullName") { result[id] = name }
        }
        return result
    }

    private static func labelNames(_ labels: [LocatedJSON]) throws -> [String: String] {
        var result: [String: String] = [:]
        for label in labels {
            if let id = try label.string("id"), let name = try labelName(label) { result[id] = name }
        }
        return result
    }
}

/// A Trello list as cards are read against it: its place in board order, its own `pos`, whether archived.
struct TrelloList {
    var index: Int
    var position: Double
    var closed: Bool
}

/// A card read, with its list and its own `pos`, to be put in board order.
private typealias PlacedCard = (list: TrelloList, position: Double, card: ImportedCard)

/// What each card is read against: the board's lists, member and label
/// names, and each card's checklists and comments, by id.
struct TrelloBoard {
    let lists: [String: TrelloList]
    let members: [String: String]
    let labels: [String: String]
    let checklists: [String: [TrelloParts.Checklist]]
    let comments: [String: [TrelloParts.CardComment]]
}
