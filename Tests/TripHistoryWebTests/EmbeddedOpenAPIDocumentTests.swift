import Foundation
import Testing
import TripHistoryTestSupport
import TripHistoryWeb

/// The OpenAPI document built into the binary is the repository's `openapi.yaml`, byte for byte, so `serve`
/// run from any directory serves the document the tests check responses against.
@Suite struct EmbeddedOpenAPIDocumentTests {
    @Test func theEmbeddedDocumentIsTheRepositorysOpenAPIYAML() throws {
        let repository = try Data(contentsOf: OpenAPIDocument.defaultURL)
        #expect(!repository.isEmpty)
        #expect(EmbeddedOpenAPIDocument.bytes == Array(repository))
    }
}
