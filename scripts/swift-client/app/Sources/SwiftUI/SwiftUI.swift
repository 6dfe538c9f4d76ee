// A stand-in for the few SwiftUI declarations the documentation's examples use, with SwiftUI's signatures, so
// that scripts/test-client-by-url can compile those examples on Linux, where there is no SwiftUI, against the
// client as an app gets it. It type-checks the examples' use of the client; it draws nothing.

// SwiftUI makes Foundation visible to its importers.
@_exported import Foundation

@MainActor @preconcurrency public protocol View {
    associatedtype Body: View
    @ViewBuilder var body: Body { get }
}

extension Never: View {
    public var body: Never { fatalError() }
}

@resultBuilder @MainActor public enum ViewBuilder {
    public static func buildBlock() -> EmptyView { EmptyView() }
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<(repeat each Content)> {
        TupleView((repeat each content))
    }
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
    public static func buildEither<First: View, Second: View>(first: First) -> ConditionalContent<First, Second> {
        ConditionalContent()
    }
    public static func buildEither<First: View, Second: View>(second: Second) -> ConditionalContent<First, Second> {
        ConditionalContent()
    }
}

extension Optional: View where Wrapped: View {
    public var body: Never { fatalError() }
}

public struct EmptyView: View {
    public init() {}
    public var body: Never { fatalError() }
}

public struct TupleView<T>: View {
    public init(_ value: T) {}
    public var body: Never { fatalError() }
}

public struct ConditionalContent<First, Second>: View {
    public var body: Never { fatalError() }
}

public struct ModifiedView: View {
    public var body: Never { fatalError() }
}

public struct Text: View {
    public init<S: StringProtocol>(_ content: S) {}
    public init(verbatim content: String) {}
    public func font(_ font: Font?) -> Text { self }
    public var body: Never { fatalError() }
}

public struct Font: Sendable {
    public static let headline = Font()
    public static let subheadline = Font()
    public static let caption = Font()
}

public protocol ShapeStyle: Sendable {}

public struct HierarchicalShapeStyle: ShapeStyle {
    public static let secondary = HierarchicalShapeStyle()
}

extension ShapeStyle where Self == HierarchicalShapeStyle {
    public static var secondary: HierarchicalShapeStyle { .secondary }
}

public struct HorizontalAlignment: Sendable {
    public static let leading = HorizontalAlignment()
    public static let center = HorizontalAlignment()
}

public struct VerticalAlignment: Sendable {
    public static let center = VerticalAlignment()
}

public struct VStack<Content: View>: View {
    public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError() }
}

public struct HStack<Content: View>: View {
    public init(alignment: VerticalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError() }
}

public struct Spacer: View {
    public init() {}
    public var body: Never { fatalError() }
}

public struct List<Content: View>: View {
    public init(@ViewBuilder content: () -> Content) {}
    public init<Data: RandomAccessCollection, ID: Hashable, RowContent: View>(
        _ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent
    ) where Content == ForEach<Data, ID, RowContent> {}
    public var body: Never { fatalError() }
}

public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content: View>: View {
    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) {}
    public var body: Never { fatalError() }
}

public struct ProgressView: View {
    public init() {}
    public var body: Never { fatalError() }
}

public struct Button<Label: View>: View {
    public init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void) where Label == Text {}
    public var body: Never { fatalError() }
}

public struct Menu<Label: View, Content: View>: View {
    public init<S: StringProtocol>(_ title: S, @ViewBuilder content: () -> Content) where Label == Text {}
    public var body: Never { fatalError() }
}

public struct Label<Title: View, Icon: View>: View {
    public init<S: StringProtocol>(_ title: S, systemImage name: String) where Title == Text, Icon == EmptyView {}
    public var body: Never { fatalError() }
}

public struct ContentUnavailableView<LabelContent: View, Description: View, Actions: View>: View {
    public init(
        @ViewBuilder label: () -> LabelContent, @ViewBuilder description: () -> Description = { EmptyView() },
        @ViewBuilder actions: () -> Actions = { EmptyView() }
    ) {}
    public var body: Never { fatalError() }
}

public struct NavigationStack<Root: View>: View {
    public init(@ViewBuilder root: () -> Root) {}
    public var body: Never { fatalError() }
}

@propertyWrapper public struct State<Value>: Sendable {
    public init(initialValue value: Value) {}
    public init(wrappedValue value: Value) {}
    public var wrappedValue: Value {
        get { fatalError() }
        nonmutating set {}
    }
}

extension View {
    public func font(_ font: Font?) -> ModifiedView { ModifiedView() }
    public func foregroundStyle<S: ShapeStyle>(_ style: S) -> ModifiedView { ModifiedView() }
    public func frame(maxWidth: CGFloat? = nil, maxHeight: CGFloat? = nil) -> ModifiedView { ModifiedView() }
    public func navigationTitle<S: StringProtocol>(_ title: S) -> ModifiedView { ModifiedView() }
    public func toolbar<Content: View>(@ViewBuilder content: () -> Content) -> ModifiedView { ModifiedView() }
    public func overlay<V: View>(@ViewBuilder content: () -> V) -> ModifiedView { ModifiedView() }
    public func task(
        priority: TaskPriority = .userInitiated,
        @_inheritActorContext _ action: @escaping @isolated(any) @Sendable () async -> Void
    ) -> ModifiedView { ModifiedView() }
    public func task<T: Equatable>(
        id value: T, priority: TaskPriority = .userInitiated,
        @_inheritActorContext _ action: @escaping @isolated(any) @Sendable () async -> Void
    ) -> ModifiedView { ModifiedView() }
    public func refreshable(action: @escaping @Sendable () async -> Void) -> ModifiedView { ModifiedView() }
}
