import Testing
@testable import FlickLinux
