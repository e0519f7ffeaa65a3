import FlickCore
