// chain.v: a netlist of known depth for testbench/test_timing.sh. y is the OR of the 32 bits of
// register r: a balanced tree of 5 AND2 levels (generic; inverters on its inputs and output) or 3 LUT4 levels (iCE40), from r[i] to y;
// z is registered through 1 level and the input-to-r path has none. h, the OR of r's lower half
// (4 levels), is a named net on y's path (netdepth.py --path).
`default_nettype none
module chain (input wire clk, input wire [31:0] x, output reg y, output reg z);
    reg [31:0] r;
    wire h = |r[15:0];
    always @(posedge clk) begin
        r <= x;
        y <= h | (|r[31:16]);
        z <= r[0] & r[1];
    end
endmodule
