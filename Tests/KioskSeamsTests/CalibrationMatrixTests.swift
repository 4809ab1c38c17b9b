import KioskSeams
import Testing

@Suite struct CalibrationMatrixTests {
    @Test func parsesSixNumbers() throws {
        let m = try CalibrationMatrix(parsing: "0 -1 1 1 0 0")
        #expect(m.values == [0, -1, 1, 1, 0, 0])
        #expect(m == .turned(.quarter))
        #expect(try CalibrationMatrix(parsing: " 1.5,0, 0 0\t1 -0.25 ").values == [1.5, 0, 0, 0, 1, -0.25])
        #expect(try CalibrationMatrix(parsing: "1 0 0 0 1 0").isIdentity)
    }

    @Test func rejectsTheWrongCount() {
        #expect(throws: CalibrationError.wrongCount(text: "1 0 0 0 1", count: 5)) {
            try CalibrationMatrix(parsing: "1 0 0 0 1")
        }
        #expect(throws: CalibrationError.wrongCount(text: "", count: 0)) { try CalibrationMatrix(parsing: "") }
    }

    @Test func namesTheBadNumber() {
        #expect(throws: CalibrationError.notANumber(text: "1 0 x 0 1 0", position: 3, field: "x")) {
            try CalibrationMatrix(parsing: "1 0 x 0 1 0")
        }
        #expect(throws: CalibrationError.notANumber(text: "1 0 0 0 1 nan", position: 6, field: "nan")) {
            try CalibrationMatrix(parsing: "1 0 0 0 1 nan")
        }
        #expect(throws: CalibrationError.notANumber(text: "inf 0 0 0 1 0", position: 1, field: "inf")) {
            try CalibrationMatrix(parsing: "inf 0 0 0 1 0")
        }
        let message = CalibrationError.notANumber(text: "1 0 x 0 1 0", position: 3, field: "x").description
        #expect(message == "touch calibration \"1 0 x 0 1 0\": number 3 \"x\" is not a finite number")
    }

    /// The documented matrices turn the digitizer's normalized corners clockwise.
    @Test func turnedMatricesMoveTheCorners() {
        let topLeft = (x: 0.0, y: 0.0)
        #expect(CalibrationMatrix.turned(.quarter).apply(x: topLeft.x, y: topLeft.y) == (1, 0))
        #expect(CalibrationMatrix.turned(.half).apply(x: topLeft.x, y: topLeft.y) == (1, 1))
        #expect(CalibrationMatrix.turned(.threeQuarters).apply(x: topLeft.x, y: topLeft.y) == (0, 1))
        #expect(CalibrationMatrix.turned(.none).apply(x: 0.25, y: 0.75) == (0.25, 0.75))
    }

    /// Two quarter turns are a half turn, four are none: the matrices agree with each other.
    @Test func quarterTurnsCompose() {
        let q = CalibrationMatrix.turned(.quarter)
        for (x, y) in [(0.1, 0.2), (0.9, 0.3), (0.5, 0.5), (0.0, 1.0)] {
            let once = q.apply(x: x, y: y)
            let twice = q.apply(x: once.x, y: once.y)
            let half = CalibrationMatrix.turned(.half).apply(x: x, y: y)
            #expect(abs(twice.x - half.x) < 1e-12 && abs(twice.y - half.y) < 1e-12)
            let thrice = q.apply(x: twice.x, y: twice.y)
            let threeQuarters = CalibrationMatrix.turned(.threeQuarters).apply(x: x, y: y)
            #expect(abs(thrice.x - threeQuarters.x) < 1e-12 && abs(thrice.y - threeQuarters.y) < 1e-12)
            let four = q.apply(x: thrice.x, y: thrice.y)
            #expect(abs(four.x - x) < 1e-12 && abs(four.y - y) < 1e-12)
        }
    }

    @Test func printsAsItParses() throws {
        #expect(CalibrationMatrix.turned(.half).description == "-1 0 1 0 -1 1")
        #expect(try CalibrationMatrix(parsing: "1.5 0 0 0 1 -0.25").description == "1.5 0 0 0 1 -0.25")
    }
}
